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

/** Marks the extra history entry that makes the browser's Back land on the page first (see useUnsavedGuard). */
const GUARD_ENTRY = "sonoscribeUnsavedGuard";
const isGuardEntry = (state: unknown) => Boolean((state as Record<string, unknown> | null)?.[GUARD_ENTRY]);
let activeGuards = 0;

// An extra entry left behind when the clinician left by a link is the same page as the entry below it: step over
// it, so that every Back press visibly goes back.
if (typeof window !== "undefined") {
  window.addEventListener("popstate", () => {
    if (activeGuards === 0 && isGuardEntry(window.history.state)) window.history.back();
  });
}

/**
 * Asks before unsaved edits are lost. guard(action) runs the action at once when nothing is edited,
 * otherwise holds it until the clinician chooses (proceed after saving or discarding, or keep editing).
 * While edits are unsaved, leaving the page asks too: the browser's own prompt on reload or close, and the
 * same question for links inside the app (the tab bar, Log out) and for the browser's Back button (an extra
 * history entry of the same address is pushed, so Back only leaves that entry, and asks).
 */
export function useUnsavedGuard(dirty: boolean) {
  const [pending, setPending] = useState<{ action: () => void } | null>(null);
  // Set once the clinician chose to leave, so the action itself is not stopped again.
  const leaving = useRef(false);
  // Set when the chosen action is the browser's Back, which the clean-up must not undo.
  const goingBack = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    leaving.current = false;
    goingBack.current = false;
    activeGuards++;
    if (!isGuardEntry(window.history.state)) {
      window.history.pushState({ ...window.history.state, [GUARD_ENTRY]: true }, "");
    }
    const onPopState = () => {
      if (leaving.current) return;
      // Back left the extra entry: put it back and ask; leaving then goes past both entries.
      window.history.pushState({ ...window.history.state, [GUARD_ENTRY]: true }, "");
      setPending({
        action: () => {
          goingBack.current = true;
          window.history.go(-2);
        },
      });
    };
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
    window.addEventListener("popstate", onPopState);
    document.addEventListener("click", onClick, true);
    return () => {
      activeGuards--;
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("popstate", onPopState);
      document.removeEventListener("click", onClick, true);
      // Saved or discarded in place: the extra entry is not needed any more.
      if (!goingBack.current && isGuardEntry(window.history.state)) window.history.back();
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
