import { useCallback, useEffect, useRef, useState } from "react";
import { forgetEdits, type KeptEdits, keepEdits, readKeptEdits } from "./local-drafts";

const KEEP_DELAY_MS = 400;

/**
 * Unsaved edits of one thing (`name`, e.g. "report:12") made on its version `base`, kept encrypted in this
 * browser as they are typed. `restorable` is what an earlier session left for this same version; edits
 * left on an older version are dropped, since the thing has been saved (or signed) since.
 */
export function useKeptEdits<T>(userId: string | undefined, name: string | null, base: string | null) {
  const [found, setFound] = useState<{ name: string; base: string; kept: KeptEdits<T> } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const generation = useRef(0);

  useEffect(() => {
    if (!userId || !name || !base) return;
    let live = true;
    void readKeptEdits<T>(userId, name).then((kept) => {
      if (!live || !kept) return;
      if (kept.base === base) setFound({ name, base, kept });
      else forgetEdits(userId, name);
    });
    return () => {
      live = false;
    };
  }, [userId, name, base]);

  const keep = useCallback(
    (value: T | null) => {
      if (!userId || !name || !base) return;
      clearTimeout(timer.current);
      const current = ++generation.current;
      if (value === null) {
        forgetEdits(userId, name);
        return;
      }
      timer.current = setTimeout(() => {
        keepEdits(userId, name, { base, value }, () => generation.current === current).catch(() => {
          // Not kept (no key, storage full): the edits are still on screen; saving is unaffected.
        });
      }, KEEP_DELAY_MS);
    },
    [userId, name, base],
  );

  const restorable = found && found.name === name && found.base === base ? found.kept : null;
  return { restorable, keep, settle: () => setFound(null) };
}
