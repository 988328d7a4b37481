import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { getQueryFn, isUnauthorizedError } from "./api";
import { handleUnauthorized } from "./session-expiry";

/** The spec's caching: never stale, no refetch on focus or interval, no retries (physicians excepted). */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: handleUnauthorized }),
  mutationCache: new MutationCache({ onError: handleUnauthorized }),
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: "throw" }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    },
    mutations: { retry: false },
  },
});

/** The physician list alone is retried, up to 3 times, never after a 401. */
export const physicianRetry = (failureCount: number, error: unknown) => !isUnauthorizedError(error) && failureCount < 3;
