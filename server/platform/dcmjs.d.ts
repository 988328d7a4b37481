// dcmjs ships no types: the few parts of its data API this project uses (reading and writing Part 10 files).
declare module "dcmjs" {
  type Dataset = Record<string, unknown>;
  class DicomDict {
    constructor(meta: Dataset);
    dict: Dataset;
    meta: Dataset;
    write(options?: Record<string, unknown>): ArrayBuffer;
  }
  const dcmjs: {
    data: {
      DicomDict: typeof DicomDict;
      DicomMessage: { readFile(buffer: ArrayBuffer, options?: Record<string, unknown>): DicomDict };
      DicomMetaDictionary: {
        naturalizeDataset(dataset: Dataset): Dataset;
        denaturalizeDataset(dataset: Dataset): Dataset;
        uid(): string;
      };
    };
    log: { setLevel(level: "trace" | "debug" | "info" | "warn" | "error" | "silent"): void };
  };
  export default dcmjs;
}
