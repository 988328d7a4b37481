import { useRef } from "react";

/**
 * A dialog opened from state (no Radix Trigger) has nowhere to send the focus when it closes, and the
 * keyboard user lands on the page's top. These handlers for the dialog content remember what had the focus
 * when it opened (the focus has not moved yet when onOpenAutoFocus runs) and give it back on close; a
 * control that is gone or disabled by then is skipped.
 */
export function useReturnFocus() {
  const previous = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      previous.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const target = previous.current;
      previous.current = null;
      if (!target?.isConnected || target === document.body || (target as HTMLButtonElement).disabled) return;
      event.preventDefault();
      target.focus();
    },
  };
}
