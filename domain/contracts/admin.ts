import { z } from "zod";

export const systemStats = z.object({
  /** Gigabytes (database plus stored files). */
  databaseSize: z.number(),
  /** Percent per 30 days, from the daily storage snapshots. */
  monthlyGrowth: z.number(),
  /** How many days of snapshots the growth figure rests on (0: not enough history yet). */
  growthBasisDays: z.number(),
  activeUsers: z.number(),
  totalReports: z.number(),
  reportsThisMonth: z.number(),
  reportDataSize: z.number(),
  reportDataPercent: z.number(),
  worksheetFilesSize: z.number(),
  worksheetFilesPercent: z.number(),
  userDataSize: z.number(),
  userDataPercent: z.number(),
  /** Milliseconds, from this server's own request metrics. */
  avgResponseTime: z.number(),
  /** Percent of responses that were not 5xx. */
  apiSuccessRate: z.number(),
  /** Milliseconds to decrypt one stored file, measured on recent real files (null when none exist). */
  encryptionOverhead: z.number().nullable(),
  requestsMeasured: z.number(),
});
export type SystemStats = z.infer<typeof systemStats>;

export const clinicStat = z.object({
  id: z.number(),
  name: z.string(),
  location: z.string(),
  reportsLast30Days: z.number(),
  activeUsers: z.number(),
  lastUsed: z.string().nullable(),
  status: z.enum(["Active", "Inactive", "Idle"]),
});
export type ClinicStat = z.infer<typeof clinicStat>;

export const costProjection = z.object({
  currentMonth: z.number(),
  nextMonth: z.number(),
  alerts: z.number(),
  alertMessages: z.array(z.string()),
  databaseCost: z.number(),
  storageCost: z.number(),
  aiCost: z.number(),
  totalEstimated: z.number(),
  recommendations: z.array(z.string()),
  unitPrices: z.object({
    dbPerGbMonth: z.number(),
    storagePerGbMonth: z.number(),
    aiPerReport: z.number(),
    alertMonthlyUsd: z.number(),
  }),
});
export type CostProjection = z.infer<typeof costProjection>;

export const clinicalFindings = [
  { value: "normal", label: "Normal Study" },
  { value: "abnormal", label: "Abnormal Findings" },
  { value: "complex", label: "Complex Pathology" },
] as const;

export const trainingPair = z.object({
  id: z.number(),
  uploadedAt: z.string().nullable(),
  category: z.string(),
  complexityLevel: z.string(),
  /** Characters of report text extracted (0 when the format has no extractable text). */
  reportTextLength: z.number(),
});
export type TrainingPair = z.infer<typeof trainingPair>;
