import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { REPORTS_PAGE_SIZE, type Report } from "../../../../domain/contracts/reports";
import { toast } from "../../components/ui/use-toast";
import { errorMessage } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { REPORTS_KEY, reportPageQuery } from "./report-api";

/**
 * Previous/Next of the editor over some list (the Reports list, or a sign-off queue): where it stands, how
 * many there are, and the moves. afterDelete also serves after a signature takes the report out of a queue.
 */
export type EditorNavigation = {
  position: number;
  total: number | null;
  moving: boolean;
  hasPrevious: boolean;
  hasNext: boolean;
  previous: () => Promise<void> | void;
  next: () => Promise<void> | void;
  afterDelete: () => Promise<void> | void;
};

/**
 * Where the editor stands: a position (0-based) in the filtered list, and the report shown there. `search`
 * is the list's query string (search words and filters, see listQueryOf), so Next follows the same list.
 */
export type EditorTarget = { search: string; position: number; reportId: number };

export const pageOfPosition = (position: number) => Math.floor(position / REPORTS_PAGE_SIZE) + 1;

/**
 * A position that still exists in a list of `total` reports. After a deletion the next report slides into
 * the same position, and at the end of the list the previous one is shown; null when none is left.
 */
export function clampPosition(position: number, total: number): number | null {
  return total <= 0 ? null : Math.min(Math.max(position, 0), total - 1);
}

/** The neighbouring positions whose page is not the current one (worth fetching ahead). */
export function pagesToPrefetch(position: number, total: number): number[] {
  const current = pageOfPosition(position);
  return [position - 1, position + 1]
    .filter((p) => p >= 0 && p < total)
    .map(pageOfPosition)
    .filter((page) => page !== current);
}

/**
 * The report at a position of the filtered list, fetching its page through the list API when it is not
 * cached. A position past the end (the list shrank) resolves to the last report; null when none is left.
 */
async function reportAt(search: string, position: number): Promise<{ position: number; report: Report } | null> {
  const page = await queryClient.fetchQuery(reportPageQuery(search, pageOfPosition(position)));
  const clamped = clampPosition(position, page.total);
  if (clamped === null) return null;
  if (clamped !== position) return reportAt(search, clamped);
  const report = page.items[position % REPORTS_PAGE_SIZE];
  return report ? { position, report } : null;
}

/**
 * Previous/Next across the whole filtered list: "x of n" counts the list's total for the search, and
 * crossing a page boundary fetches the neighbouring page. The report id is kept apart from the position so
 * that a refreshed list (after a save) never swaps the report under the clinician's eyes.
 */
export function useEditorNavigation(
  target: EditorTarget,
  onMove: (target: EditorTarget) => void,
  onEmpty: () => void,
): EditorNavigation {
  const { search, position } = target;
  const page = useQuery(reportPageQuery(search, pageOfPosition(position)));
  const total = page.data?.total ?? null;
  const [moving, setMoving] = useState(false);

  useEffect(() => {
    if (total === null) return;
    for (const n of pagesToPrefetch(position, total)) void queryClient.prefetchQuery(reportPageQuery(search, n));
  }, [search, position, total]);

  const moveTo = async (next: number) => {
    setMoving(true);
    try {
      const found = await reportAt(search, next);
      if (!found) return onEmpty();
      // The list already holds the report: the editor shows it at once instead of fetching it again.
      if (!queryClient.getQueryData([REPORTS_KEY, found.report.id])) {
        queryClient.setQueryData([REPORTS_KEY, found.report.id], found.report);
      }
      onMove({ search, position: found.position, reportId: found.report.id });
    } catch (error) {
      toast({
        title: "Reports could not be loaded",
        description: errorMessage(error, "Failed to load reports"),
        variant: "destructive",
      });
    } finally {
      setMoving(false);
    }
  };

  return {
    position,
    total,
    moving,
    hasPrevious: position > 0,
    hasNext: total !== null && position < total - 1,
    previous: () => moveTo(position - 1),
    next: () => moveTo(position + 1),
    /** After the current report was deleted (the lists are already refreshed). */
    afterDelete: () => moveTo(position),
  };
}
