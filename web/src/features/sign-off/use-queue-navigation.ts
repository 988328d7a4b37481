import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "../../components/ui/use-toast";
import { errorMessage } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import type { EditorNavigation } from "../reports/report-navigation";
import { clampPosition } from "../reports/report-navigation";
import { queueIds, worklistQuery } from "./sign-off-api";

/** The report open in the sign-off editor, and the queue (physician id, null: unassigned) it belongs to. */
export type QueueTarget = { queue: number | null; reportId: number; position: number };

/**
 * Previous/Next over one sign-off queue. After a signature (or a deletion) the report leaves the queue: the
 * next draft slides into its position and opens; with none left the editor closes.
 */
export function useQueueNavigation(
  target: QueueTarget,
  onMove: (target: QueueTarget) => void,
  onEmpty: () => void,
): EditorNavigation {
  const worklist = useQuery(worklistQuery());
  const ids = queueIds(worklist.data, target.queue);
  // The list may have moved under us (a colleague signed): the position follows the report when it is there.
  const found = ids.indexOf(target.reportId);
  const position = found >= 0 ? found : target.position;
  const [moving, setMoving] = useState(false);

  const moveTo = (list: number[], next: number) => {
    const clamped = clampPosition(next, list.length);
    if (clamped === null) return onEmpty();
    onMove({ queue: target.queue, reportId: list[clamped]!, position: clamped });
  };

  const afterRemoval = async () => {
    setMoving(true);
    try {
      const fresh = await queryClient.fetchQuery({ ...worklistQuery(), staleTime: 0 });
      moveTo(
        queueIds(fresh, target.queue).filter((id) => id !== target.reportId),
        position,
      );
    } catch (error) {
      toast({
        title: "The worklist could not be loaded",
        description: errorMessage(error, "Failed to load the worklist"),
        variant: "destructive",
      });
    } finally {
      setMoving(false);
    }
  };

  return {
    position,
    total: worklist.data ? ids.length : null,
    moving: moving || worklist.isFetching,
    hasPrevious: position > 0,
    hasNext: position < ids.length - 1,
    previous: () => moveTo(ids, position - 1),
    next: () => moveTo(ids, position + 1),
    afterDelete: afterRemoval,
  };
}
