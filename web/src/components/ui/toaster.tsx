import * as ToastPrimitive from "@radix-ui/react-toast";
import { X } from "lucide-react";
import { cn } from "../../lib/cn";
import { dismissToast, TOAST_DURATION_MS, useToasts } from "./use-toast";

const tone = {
  default: "border-slate-200 bg-white text-slate-900",
  success: "border-green-300 bg-green-50 text-green-950",
  destructive: "border-red-300 bg-red-50 text-red-950",
};

export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider swipeDirection="right" swipeThreshold={50} duration={TOAST_DURATION_MS}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          duration={t.duration}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          className={cn(
            "relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[state=closed]:opacity-0",
            tone[t.variant ?? "default"],
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description ? (
              <ToastPrimitive.Description className="text-sm break-words">{t.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close className="absolute right-2 top-2 rounded p-1 hover:bg-black/5" aria-label="Dismiss">
            <X className="h-4 w-4" aria-hidden />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={["F8"]}
        className="fixed bottom-0 right-0 z-[100] flex w-full max-w-sm flex-col gap-2 p-4 outline-none"
      />
    </ToastPrimitive.Provider>
  );
}
