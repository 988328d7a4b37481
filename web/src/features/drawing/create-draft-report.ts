import { type Report, reportSchema } from "../../../../domain/contracts/reports";
import { ApiError, parseAnswer } from "../../lib/api";
import { DRAFT_TIMEOUT_MS } from "./drawing-tools";

/** POST create-draft-report with the spec's 30 s time-out and its message. */
export async function createDraftReport(sessionId: number): Promise<Report> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), DRAFT_TIMEOUT_MS);
  try {
    const url = `/api/digital-worksheets/${sessionId}/create-draft-report`;
    const res = await fetch(url, {
      method: "POST",
      credentials: "include",
      signal: controller.signal,
    });
    if (!res.ok) {
      const error = new ApiError(res.status, await res.text(), res.statusText);
      throw new Error(error.serverMessage ?? "Failed to create draft report");
    }
    return parseAnswer(url, reportSchema, await res.json());
  } catch (error) {
    if (controller.signal.aborted) throw new Error("Request timeout after 30 seconds");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
