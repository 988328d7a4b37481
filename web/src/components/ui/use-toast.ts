import { type ReactNode, useSyncExternalStore } from "react";

/** The spec's toasts: one at a time, 5000 ms by default, removed 1,000,000 ms after dismissal. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastOptions = {
  title: string;
  description?: ReactNode;
  variant?: "default" | "destructive" | "success";
  duration?: number;
};
export type ToastItem = ToastOptions & { id: number; open: boolean };

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]) {
  items = next;
  for (const listener of listeners) listener();
}

export function toast(options: ToastOptions): { id: number; dismiss: () => void } {
  const id = nextId++;
  emit([{ ...options, id, open: true }, ...items].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

export function dismissToast(id: number) {
  emit(items.map((t) => (t.id === id ? { ...t, open: false } : t)));
  if (!removalTimers.has(id)) {
    removalTimers.set(
      id,
      setTimeout(() => {
        removalTimers.delete(id);
        emit(items.filter((t) => t.id !== id));
      }, TOAST_REMOVE_DELAY_MS),
    );
  }
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => items,
  );
}
