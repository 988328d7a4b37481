import type { TextShortcutRequest } from "../../domain/contracts/templates";
import type { ScanType } from "../../domain/report-engine/vocabulary";
import type { LegendDrawing } from "./demo-images";

// What the demo clinic holds. Everything here is invented; the worksheets are the project's synthetic fixtures.

export const DEMO_CLINIC = {
  name: "Demo Vascular Clinic",
  phone: "(555) 010-2040",
  address: "200 Harbor Street, Suite 4",
  city: "Springfield",
  state: "IL",
  zipCode: "62704",
  logoColor: "#0b5cad",
} as const;

export const DEMO_ADMIN = { email: "demo-admin@sonoscribe.demo", firstName: "Alex", lastName: "Morgan" } as const;
export const DEMO_SONOGRAPHER = {
  email: "demo-sonographer@sonoscribe.demo",
  firstName: "Sam",
  lastName: "Rivera",
} as const;

export const DEMO_PHYSICIANS = [
  { name: "Dr. Maria Chen", title: "MD, RPVI", specialty: "Vascular Surgery" },
  { name: "Dr. James Whitaker", title: "MD", specialty: "Interventional Radiology" },
] as const;

/** Each physician's own account (same order as DEMO_PHYSICIANS): the demo's reports are signed by them. */
export const DEMO_PHYSICIAN_ACCOUNTS = [
  { email: "demo-chen@sonoscribe.demo", firstName: "Maria", lastName: "Chen" },
  { email: "demo-whitaker@sonoscribe.demo", firstName: "James", lastName: "Whitaker" },
] as const;

export const DEMO_SONOGRAPHERS = [
  { name: "Priya Natarajan", initials: "PN", title: "RVT", department: "Vascular Lab" },
  { name: "Tom Becker", initials: "TB", title: "RDMS, RVT", department: "Vascular Lab" },
  { name: "Lucia Alvarez", initials: "LA", title: "RVT", department: "Outpatient Imaging" },
] as const;

/** The clinic's everyday template (default) and a formal letter that differs in every visible setting. */
export const DEMO_TEMPLATES = [
  {
    name: "Standard Vascular Report",
    description: "Everyday layout: blue headings, patient details in a grid, signature on the right.",
    clinicName: DEMO_CLINIC.name,
    clinicAddress: `${DEMO_CLINIC.address}, ${DEMO_CLINIC.city}, ${DEMO_CLINIC.state} ${DEMO_CLINIC.zipCode}`,
    clinicPhone: DEMO_CLINIC.phone,
    footerText: "Demo data: invented patients, for trying Sonoscribe only.",
    isDefault: true,
  },
  {
    name: "Formal Letter",
    description:
      "For referrers who want a letter: burgundy serif type, patient details as a list, signature on the left.",
    templateType: "pdf",
    clinicName: DEMO_CLINIC.name,
    clinicAddress: `${DEMO_CLINIC.address}, ${DEMO_CLINIC.city}, ${DEMO_CLINIC.state} ${DEMO_CLINIC.zipCode}`,
    clinicPhone: DEMO_CLINIC.phone,
    patientInfoLayout: "list",
    showPatientId: true,
    showGenerationDate: false,
    signaturePosition: "left",
    primaryColor: "#7c1d2e",
    fontFamily: "Times New Roman",
    fontSize: "11px",
    footerText: "Demo Vascular Clinic, accredited vascular laboratory (demo data).",
    isDefault: false,
  },
] as const;

export const DEMO_WORKSHEET_TEMPLATES = [
  {
    name: "Carotid Duplex Worksheet",
    description: "Bilateral CCA, bulb, ICA, ECA and vertebral velocities.",
    category: "vascular",
    file: "ws-clean-004.png",
  },
  {
    name: "Lower Limb Venous Reflux Worksheet",
    description: "Deep and superficial veins: reflux times and diameters.",
    category: "vascular",
    file: "ws-clean-002.png",
  },
] as const;

export const DEMO_LEGEND: ReadonlyArray<{
  title: string;
  medicalMeaning: string;
  description: string;
  keywords: string;
  drawing: LegendDrawing;
  drawingPattern: string;
}> = [
  {
    title: "Red X",
    medicalMeaning: "Occluded segment: no flow detected on colour or spectral Doppler.",
    description: "A red cross drawn over a vessel segment.",
    keywords: "occluded, occlusion, no flow",
    drawing: "red-x",
    drawingPattern: "red cross over the segment",
  },
  {
    title: "Arrow",
    medicalMeaning: "Reflux: retrograde flow beyond the threshold for the vein, in the direction of the arrow.",
    description: "An arrow pointing down the vein.",
    keywords: "reflux, incompetent, retrograde",
    drawing: "reflux-arrow",
    drawingPattern: "downward arrow along the vein",
  },
  {
    title: "Hatched area",
    medicalMeaning: "Plaque at the marked site; the hatching shows its extent.",
    description: "Diagonal hatching inside the vessel outline.",
    keywords: "plaque, calcified, heterogeneous",
    drawing: "plaque-hatch",
    drawingPattern: "hatched area in the vessel wall",
  },
  {
    title: "Zigzag between lines",
    medicalMeaning: "Stent in the marked segment.",
    description: "A zigzag between two parallel lines.",
    keywords: "stent, stented",
    drawing: "stent-lines",
    drawingPattern: "zigzag between two lines",
  },
  {
    title: "Filled lumen",
    medicalMeaning: "Thrombus: non-compressible vein filled with echogenic material.",
    description: "The vein's lumen shaded dark.",
    keywords: "thrombus, DVT, non-compressible",
    drawing: "dvt-fill",
    drawingPattern: "shaded lumen",
  },
];

export const DEMO_SHORTCUTS: TextShortcutRequest[] = [
  { title: "Normal study", shortText: "No haemodynamically significant abnormality.", category: "general" },
  { title: "Limited views", shortText: "Views were limited by body habitus.", category: "general", tags: "quality" },
  {
    title: "Antegrade vertebrals",
    shortText: "Both vertebral arteries show antegrade flow.",
    category: "findings",
    tags: "carotid",
  },
  {
    title: "Deep veins patent",
    shortText: "The deep veins are fully compressible with phasic flow.",
    category: "findings",
    tags: "venous",
  },
  {
    title: "No DVT",
    shortText: "No evidence of deep vein thrombosis in the veins examined.",
    category: "impressions",
    tags: "venous",
  },
  {
    title: "Carotid follow-up",
    shortText: "Repeat carotid duplex in 12 months is suggested.",
    category: "recommendations",
    tags: "carotid",
  },
  {
    title: "Vascular referral",
    shortText: "Referral to vascular surgery is suggested.",
    category: "recommendations",
  },
  { title: "TIA", shortText: "Transient ischaemic attack.", category: "indications", tags: "carotid" },
  { title: "Varicose veins", shortText: "Symptomatic varicose veins.", category: "indications", tags: "venous" },
];

export type DemoReportState = "draft" | "finalized" | "amended" | "amended-signed";

export type DemoWorksheet = {
  file: string;
  /** Chosen only when OCR does not detect the scan type, as a person picks it in the upload view. */
  scanType: ScanType;
  state: DemoReportState;
  /** Index into DEMO_PHYSICIANS and DEMO_TEMPLATES. */
  physician: 0 | 1;
  template: 0 | 1;
  by: "admin" | "sonographer";
};

/** Twelve worksheets, one report each: four drafts, four signed, four amended (two of them signed again). */
export const DEMO_WORKSHEETS: DemoWorksheet[] = [
  {
    file: "ws-clean-000.png",
    scanType: "Carotid Duplex",
    state: "amended-signed",
    physician: 0,
    template: 0,
    by: "admin",
  },
  { file: "ws-clean-001.png", scanType: "Carotid Duplex", state: "finalized", physician: 0, template: 1, by: "admin" },
  {
    file: "ws-clean-002.png",
    scanType: "Lower Limb Venous",
    state: "finalized",
    physician: 1,
    template: 0,
    by: "admin",
  },
  { file: "ws-clean-003.png", scanType: "Lower Limb Venous", state: "draft", physician: 1, template: 0, by: "admin" },
  { file: "ws-clean-004.png", scanType: "Carotid Duplex", state: "finalized", physician: 0, template: 0, by: "admin" },
  { file: "ws-clean-006.png", scanType: "Lower Limb Venous", state: "amended", physician: 1, template: 1, by: "admin" },
  { file: "ws-clean-009.png", scanType: "Carotid Duplex", state: "draft", physician: 0, template: 0, by: "admin" },
  {
    file: "ws-clean-010.png",
    scanType: "Lower Limb Venous",
    state: "finalized",
    physician: 1,
    template: 0,
    by: "admin",
  },
  {
    file: "ws-clean-011.png",
    scanType: "Carotid Duplex",
    state: "amended-signed",
    physician: 0,
    template: 1,
    by: "admin",
  },
  {
    file: "ws-clean-013.png",
    scanType: "Lower Limb Venous",
    state: "draft",
    physician: 1,
    template: 0,
    by: "sonographer",
  },
  {
    file: "ws-noisy-020.jpg",
    scanType: "Carotid Duplex",
    state: "draft",
    physician: 0,
    template: 0,
    by: "sonographer",
  },
  { file: "ws-noisy-031.jpg", scanType: "Carotid Duplex", state: "amended", physician: 0, template: 0, by: "admin" },
];

export const AMENDMENTS = {
  "Carotid Duplex": {
    reason: "Follow-up recommendation added after discussion with the referring physician.",
    addition: "Repeat carotid duplex in 6 months, or sooner if symptoms recur.",
  },
  "Lower Limb Venous": {
    reason: "Compression therapy advice added at the referrer's request.",
    addition: "Graduated compression stockings advised pending vascular review.",
  },
} as const;
