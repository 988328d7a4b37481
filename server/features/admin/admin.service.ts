import type { ClinicStat, CostProjection, SystemStats } from "../../../domain/contracts/admin";
import type { AppDeps } from "../../platform/deps";
import {
  activeUserCount,
  clinicActivity,
  fileBytesByKind,
  oldWorksheetFiles,
  recentFiles,
  relationBytes,
  reportCounts,
} from "./admin.repository";
import { monthlyGrowth } from "./storage-snapshots";

const GB = 1024 ** 3;
const round = (value: number, digits = 2) => Number(value.toFixed(digits));
const percentOf = (part: number, whole: number) => (whole > 0 ? round((part / whole) * 100, 1) : 0);

/** Decrypting a few recent real files shows what encryption at rest costs per file read. */
async function measureDecryptMs(deps: AppDeps): Promise<number | null> {
  const files = await recentFiles(deps.database.db, 5);
  if (files.length === 0) return null;
  const started = performance.now();
  let read = 0;
  for (const file of files) {
    try {
      await deps.fileStore.get(file.storageKey);
      read++;
    } catch {
      // A missing file is reported elsewhere (integrity checks); it does not belong in a timing.
    }
  }
  return read ? round((performance.now() - started) / read) : null;
}

export async function systemStatistics(deps: AppDeps, now = new Date()): Promise<SystemStats> {
  const { db } = deps.database;
  const [dbBytes, files, reportBytes, userBytes, counts, activeUsers, growth, decryptMs] = await Promise.all([
    deps.database.sizeBytes(),
    fileBytesByKind(db),
    relationBytes(db, ["reports", "report_versions"]),
    relationBytes(db, ["users", "sessions", "clinics", "user_invitations", "audit_events"]),
    reportCounts(db, now),
    activeUserCount(db, now),
    monthlyGrowth(deps, now),
    measureDecryptMs(deps),
  ]);
  const userData = userBytes + files.other;
  const breakdownTotal = reportBytes + files.worksheet + userData;
  const metrics = deps.metrics.summary();
  return {
    databaseSize: round((dbBytes + files.worksheet + files.other) / GB, 4),
    monthlyGrowth: round(growth.percent, 1),
    growthBasisDays: growth.basisDays,
    activeUsers,
    totalReports: counts.total,
    reportsThisMonth: counts.thisMonth,
    reportDataSize: reportBytes,
    reportDataPercent: percentOf(reportBytes, breakdownTotal),
    worksheetFilesSize: files.worksheet,
    worksheetFilesPercent: percentOf(files.worksheet, breakdownTotal),
    userDataSize: userData,
    userDataPercent: percentOf(userData, breakdownTotal),
    avgResponseTime: round(metrics.avgResponseMs, 1),
    apiSuccessRate: round(metrics.successRate * 100, 2),
    encryptionOverhead: decryptMs,
    requestsMeasured: metrics.requests,
  };
}

export async function clinicStatistics(deps: AppDeps, now = new Date()): Promise<ClinicStat[]> {
  const rows = await clinicActivity(deps.database.db, now);
  return rows.map((row) => {
    const lastUsed = [row.lastReport, row.lastSeen]
      .filter((d): d is Date => d instanceof Date || typeof d === "string")
      .map((d) => new Date(d))
      .sort((a, b) => b.getTime() - a.getTime())[0];
    const recent = Number(row.recent ?? 0);
    const active = Number(row.active ?? 0);
    return {
      id: row.id,
      name: row.name,
      location: [row.city, row.state].filter(Boolean).join(", ") || "Not given",
      reportsLast30Days: recent,
      activeUsers: active,
      lastUsed: lastUsed ? lastUsed.toISOString() : null,
      status: !row.isActive ? "Inactive" : recent > 0 || active > 0 ? "Active" : "Idle",
    };
  });
}

export async function costProjection(deps: AppDeps, now = new Date()): Promise<CostProjection> {
  const prices = deps.config.costs;
  const { db } = deps.database;
  const [dbBytes, files, counts, growth, oldFiles] = await Promise.all([
    deps.database.sizeBytes(),
    fileBytesByKind(db),
    reportCounts(db, now),
    monthlyGrowth(deps, now),
    oldWorksheetFiles(db, new Date(now.getTime() - 365 * 86_400_000)),
  ]);
  const storageBytes = files.worksheet + files.other;
  // The language model costs only when one is configured; its unit is per generated report.
  const aiPerReport = deps.config.llm ? prices.aiPerReport : 0;
  const databaseCost = (dbBytes / GB) * prices.dbPerGbMonth;
  const storageCost = (storageBytes / GB) * prices.storagePerGbMonth;
  const aiCost = counts.last30Days * aiPerReport;
  const currentMonth = databaseCost + storageCost + aiCost;
  const growthFactor = 1 + Math.max(growth.percent, 0) / 100;
  const nextMonth = (databaseCost + storageCost) * growthFactor + aiCost * growthFactor;

  const alertMessages: string[] = [];
  if (currentMonth > prices.alertMonthlyUsd) {
    alertMessages.push(
      `This month's estimate $${currentMonth.toFixed(2)} is above the $${prices.alertMonthlyUsd} threshold`,
    );
  }
  if (nextMonth > prices.alertMonthlyUsd) {
    alertMessages.push(
      `Next month's projection $${nextMonth.toFixed(2)} is above the $${prices.alertMonthlyUsd} threshold`,
    );
  }
  if (growth.percent > 50) alertMessages.push(`Storage is growing ${growth.percent.toFixed(0)}% a month`);

  const recommendations: string[] = [];
  if (oldFiles.count > 0) {
    recommendations.push(
      `Archive ${oldFiles.count} worksheet files older than a year (${(oldFiles.bytes / 1024 ** 2).toFixed(1)} MB) to cold storage`,
    );
  }
  if (storageBytes > dbBytes * 4 && storageBytes > 0.5 * GB) {
    recommendations.push(
      "Worksheet files dominate storage: move the file store to object storage with lifecycle rules",
    );
  }
  if (growth.percent > 20) {
    recommendations.push("Growth is above 20% a month: plan database capacity and review retention of drafts");
  }
  if (deps.config.llm && counts.last30Days > 0 && aiCost > currentMonth * 0.5) {
    recommendations.push("Language model calls are over half the cost: consider a smaller model for rephrasing");
  }
  return {
    currentMonth: round(currentMonth),
    nextMonth: round(nextMonth),
    alerts: alertMessages.length,
    alertMessages,
    databaseCost: round(databaseCost),
    storageCost: round(storageCost),
    aiCost: round(aiCost),
    totalEstimated: round(currentMonth),
    recommendations,
    unitPrices: prices,
  };
}
