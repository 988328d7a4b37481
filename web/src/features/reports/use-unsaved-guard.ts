import { useEffect, useRef, useState } from "react";

/** A link click that would take the clinician away from the page (not a new tab, not an anchor on it). */
function leavingLink(event: MouseEvent): HTMLAnchorElement | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = (event.target as Element | null)?.closest?.("a[href]");
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== "_self")) return null;
  const url = new URL(link.href, window.location.href);
  const samePage = url.origin === window.location.origin && url.pathname === window.location.pathname;
  return samePage ? null : link;
}

/**
 * Asks before unsaved edits are lost. guard(action) runs the action at once when nothing is edited,
 * otherwise holds it until the clinician chooses (proceed after saving or discarding, or keep editing).
 * While edits are unsaved, leaving the page asks too: the browser's own prompt on reload or close, and the
 * same question for links inside the app (the tab bar, Log out).
 */
export function useUnsavedGuard(dirty: boolean) {
  const [pending, setPending] = useState<{ action: () => void } | null>(null);
  // Set once the clinician chose to leave, so the action itself is not stopped again.
  const leaving = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    leaving.current = false;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    const onClick = (event: MouseEvent) => {
      if (leaving.current) return;
      const link = leavingLink(event);
      if (!link) return;
      event.preventDefault();
      event.stopPropagation();
      setPending({ action: () => link.click() });
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);

  return {
    guard: (action: () => void) => (dirty ? setPending({ action }) : action()),
    asking: pending !== null,
    keepEditing: () => setPending(null),
    /** Runs the held action; call it after the edits were saved or discarded. */
    proceed: () => {
      const held = pending;
      setPending(null);
      leaving.current = true;
      held?.action();
    },
  };
}
