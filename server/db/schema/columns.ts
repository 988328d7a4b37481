import { integer, timestamp } from "drizzle-orm/pg-core";

/** Timestamps every mutable row carries. */
export const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export const id = () => integer("id").primaryKey().generatedAlwaysAsIdentity();
