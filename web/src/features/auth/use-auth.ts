import { useQuery } from "@tanstack/react-query";
import type { CurrentUser } from "../../../../domain/contracts/auth";
import { getQueryFn, parseAnswer } from "../../lib/api";
import { setClinicLocale } from "../../lib/dates";

/** The signed-in user, or null; a 401 is an answer here, not an error. */
export function useAuth() {
  const { data, isLoading } = useQuery<CurrentUser | null>({
    queryKey: ["/api/auth/user"],
    queryFn: async (context) => {
      const answer = await getQueryFn({ on401: "returnNull" })(context);
      if (answer === null) return null;
      // Loaded with the answer: the contracts (and zod) stay out of the first page load's budget.
      const { currentUser } = await import("../../../../domain/contracts/auth");
      return parseAnswer("/api/auth/user", currentUser, answer);
    },
  });
  // Before any signed-in screen renders: they write dates in the clinic's locale.
  setClinicLocale(data?.clinicLocale);
  return { user: data ?? null, isLoading, isAuthenticated: Boolean(data) };
}

export const displayName = (user: Pick<CurrentUser, "firstName" | "lastName" | "email">) =>
  [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email;
