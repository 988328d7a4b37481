/** A measurement as the clinician checked it in the Upload view (codes from domain/report-engine). */
export type StudyMeasurementInput = {
  site: string;
  side: "left" | "right" | null;
  parameter: string;
  value: number;
  unit: string;
};
