import type { CurrentUser } from "../../../../domain/contracts/auth";

/** Account actions (two-factor sign-in) live here; the identity work fills it in. */
export function ProfileMenu(_props: { user: CurrentUser }) {
  return null;
}
