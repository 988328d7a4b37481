import { toast } from "../components/ui/use-toast";
import { isUnauthorizedError } from "./api";

export const SESSION_REDIRECT_DELAY_MS = 500;

/**
 * On a 401: the spec's Session Expired notice, then the sign-in navigation after 500 ms.
 * Returns true when it handled the error.
 */
export function handleUnauthorized(error: unknown): boolean {
  if (!isUnauthorizedError(error)) return false;
  toast({ title: "Session Expired", description: "Please log in again to continue", variant: "destructive" });
  setTimeout(() => {
    window.location.href = "/api/login";
  }, SESSION_REDIRECT_DELAY_MS);
  return true;
}
