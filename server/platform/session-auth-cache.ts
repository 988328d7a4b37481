import type { Db } from "../db/client";
import type { ChangeCounter } from "../db/local-changes";
import { readSessionAuth, type SessionAuth, sessionAuthSql } from "./sessions";

const MAX_ENTRIES = 10_000;

/**
 * A session read stays exact while nothing it depends on may have changed (see ChangeCounter), so the next
 * request of that session reuses it instead of querying. A sign-out, a deactivation, a role change or any
 * report write in this process is seen on the very next request, and one in another process (PostgreSQL) as
 * soon as its notice arrives; the expiry time is checked here as the query would.
 */
export class SessionAuthCache {
  private readonly entries = new Map<string, { at: number; auth: SessionAuth }>();

  constructor(
    private readonly db: Db,
    private readonly changes: ChangeCounter,
  ) {
    changes.markReadOnly(sessionAuthSql(db));
  }

  async read(token: string): Promise<SessionAuth | null> {
    // Taken before the query: a change made while it runs leaves the entry already outdated.
    const at = this.changes.value;
    const hit = this.entries.get(token);
    if (hit && at !== null && hit.at === at && hit.auth.session.expire.getTime() > Date.now()) return hit.auth;
    const auth = await readSessionAuth(this.db, token);
    this.entries.delete(token);
    if (auth && at !== null) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(token, { at, auth });
    }
    return auth;
  }
}
