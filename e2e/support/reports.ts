import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import type { Report, ReportList } from "../../domain/contracts/reports";

const worksheetPng = path.resolve("fixtures/worksheets/ws-clean-000.png");

/**
 * Draft reports for the signed-in clinic, generated through the API from one uploaded worksheet (no OCR),
 * one per patient name, in the given order. Returns their ids.
 */
export async function seedReports(page: Page, patientNames: string[]): Promise<number[]> {
  const upload = await page.request.post("/api/worksheets/upload", {
    multipart: {
      worksheet: { name: "worksheet.png", mimeType: "image/png", buffer: fs.readFileSync(worksheetPng) },
    },
  });
  expect(upload.status(), await upload.text()).toBeLessThan(300);
  const worksheetId = ((await upload.json()) as { id: number }).id;
  const physician = await page.request.post("/api/physicians", {
    data: { name: "Dr. Maria Chen", title: "MD, RPVI", specialty: "Vascular Surgery" },
  });
  expect(physician.status(), await physician.text()).toBeLessThan(300);
  const physicianId = ((await physician.json()) as { id: number }).id;
  const ids: number[] = [];
  for (const [i, patientName] of patientNames.entries()) {
    const generated = await page.request.post("/api/reports/generate", {
      data: {
        worksheetId,
        physicianId,
        logoUrl: null,
        scanType: "Carotid Duplex",
        measurements: [],
        patient: {
          patientName,
          patientDob: "1950-10-27",
          examDate: `2026-11-${String(1 + (i % 28)).padStart(2, "0")}`,
        },
      },
    });
    expect(generated.status(), await generated.text()).toBeLessThan(300);
    ids.push(((await generated.json()) as Report).id);
  }
  return ids;
}

/** One page of the reports list as the Reports screen asks for it. */
export async function reportsPage(page: Page, pageNumber: number, search = ""): Promise<ReportList> {
  const params = new URLSearchParams({ page: String(pageNumber), pageSize: "12" });
  if (search) params.set("search", search);
  const res = await page.request.get(`/api/reports?${params}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as ReportList;
}
