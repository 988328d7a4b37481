import { describe, expect, it } from "vitest";
import { detectScanType } from "./scan-type";
import { siteFromLabel } from "./worksheet-vocabulary";

describe("detectScanType", () => {
  it("names the scan type from the worksheet title", () => {
    expect(detectScanType(["Hillcrest Vascular", "CAROTIDDUPLEXULTRASOUNDWORKSHEET"])).toBe("Carotid Duplex");
    expect(detectScanType(["LOWER EXTREMITY VENOUS DUPLEX WORKSHEET"])).toBe("Lower Limb Venous");
    expect(detectScanType(["Upper Limb Arterial Duplex"])).toBe("Upper Limb Arterial");
    expect(detectScanType(["AV Fistula Assessment"])).toBe("AV Fistula/Graft");
    expect(detectScanType(["Transcranial Doppler Study"])).toBe("Transcranial Doppler");
  });

  it("is null when no title line names a known type", () => {
    expect(detectScanType(["Riverside Vascular Laboratory", "Indication: ?DVT"])).toBeNull();
    expect(detectScanType([])).toBeNull();
  });
});

describe("siteFromLabel", () => {
  it("maps printed vessel labels to site codes", () => {
    expect(siteFromLabel("ICA Prox")).toBe("ICA_PROX");
    expect(siteFromLabel("CCAMid")).toBe("CCA_MID");
    expect(siteFromLabel("Bulb")).toBe("BULB");
    expect(siteFromLabel("VA")).toBe("VA");
    expect(siteFromLabel("SFJ")).toBe("SFJ");
    expect(siteFromLabel("Pop V")).toBe("POPV");
    expect(siteFromLabel("GSV Prox Thigh")).toBe("GSV_PROX");
    expect(siteFromLabel("GSV Knee")).toBe("GSV_KNEE");
    expect(siteFromLabel("Impression")).toBeNull();
  });
});
