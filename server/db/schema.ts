export * from "./schema/clinic-resources";
export * from "./schema/clinics";
export * from "./schema/platform";
export * from "./schema/reports";
export * from "./schema/templates";
export * from "./schema/worksheets";
