export const MNIST_SIZE: number;
export const HELD_OUT_FRACTION: number;
export function mnistDigits(digit: number, part: "train" | "test"): number[][];
