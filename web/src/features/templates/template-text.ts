import { ApiError, errorMessage } from "../../lib/api";

export const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The spec reads the failed response's text; the server's message is that text without its JSON wrapping. */
export const responseText = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.bodyText) : errorMessage(error);
