import { useMutation } from "@tanstack/react-query";
import { type ToastOptions, toast } from "../components/ui/use-toast";
import { apiRequest, errorMessage } from "./api";
import { queryClient } from "./query-client";

/** DELETE one record by id, refresh its list, and tell the user with the screen's own texts. */
export function useDeleteMutation(options: {
  url: (id: number) => string;
  queryKey: readonly unknown[];
  success: Omit<ToastOptions, "variant">;
  failure: { title: string; fallback: string };
}) {
  return useMutation({
    mutationFn: (id: number) => apiRequest("DELETE", options.url(id)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: options.queryKey });
      toast({ ...options.success, variant: "success" });
    },
    onError: (error) =>
      toast({
        title: options.failure.title,
        description: errorMessage(error, options.failure.fallback),
        variant: "destructive",
      }),
  });
}
