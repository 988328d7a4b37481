import type { z } from "zod";
import type { ReportListFilters } from "../../../domain/contracts/reports";
import { EncodedJson, ResponseMemo } from "../../platform/response-memo";
import { parseSearch } from "./report-search";

/**
 * Remembered report-list answers. A key holds the clinic, the clinic's report-list version as this request's
 * session read saw it (see SessionAuthCache), and the normalized query: any write by any process raises the
 * version, so the next request that knows of it misses and reads afresh; nothing needs to be invalidated here.
 */
export class ReportListMemo {
  private readonly memo: ResponseMemo;
  constructor(maxBytes: number) {
    this.memo = new ResponseMemo(maxBytes);
  }

  /** The search is case-insensitive and word-based (see parseSearch), so "Smith  " and "smith" share an entry. */
  static listKey(clinicId: number, version: number, query: ReportListFilters) {
    const { search, page, pageSize, ...filters } = query;
    const words = parseSearch(search).map((token) => token.text.toLowerCase());
    // Filters in a fixed order, so that the same list is one entry however its URL was written.
    const filterKey = Object.entries(filters)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => `${name}=${value}`)
      .join("&");
    return `${clinicId}|${version}|list|${page}|${pageSize}|${words.join(" ")}|${filterKey}`;
  }

  static recentKey(clinicId: number, version: number) {
    return `${clinicId}|${version}|recent`;
  }

  /** The encoded answer for a key; on a miss it is computed, checked against its response schema and kept. */
  async answer<S extends z.ZodType>(key: string, schema: S, compute: () => Promise<z.output<S>>) {
    return this.memo.get(key, async () => encodeJson(schema, await compute()));
  }

  body(key: string, value: EncodedJson, acceptEncoding: string | undefined) {
    return this.memo.body(key, value, acceptEncoding);
  }

  get stats() {
    return { entries: this.memo.size, bytes: this.memo.usedBytes };
  }
}

/** As the route serializer would: the response schema whitelists the fields, then JSON. */
function encodeJson<S extends z.ZodType>(schema: S, value: z.output<S>): EncodedJson {
  return new EncodedJson(Buffer.from(JSON.stringify(schema.encode(value as never))));
}
