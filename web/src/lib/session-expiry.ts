import { toast } from "../components/ui/use-toast";
import { isUnauthorizedError } from "./api";

export const SESSION_REDIRECT_DELAY_MS = 500;

/**
 * On a 401: the spec's Session Expired notice, then the sign-in navigation after 500 ms, back here afterwards.
 * Returns true when it handled the error.
 */
export function handleUnauthorized(error: unknown): boolean {
  if (!isUnauthorizedError(error)) return false;
  toast({ title: "Session Expired", description: "Please log in again to continue", variant: "destructive" });
  setTimeout(() => {
    // Back to this screen after signing in again (the editor then offers its unsaved edits back).
    const here = `${window.location.pathname}${window.location.search}`;
    window.location.href = here === "/" ? "/api/login" : `/api/login?next=${encodeURIComponent(here)}`;
  }, SESSION_REDIRECT_DELAY_MS);
  return true;
}
