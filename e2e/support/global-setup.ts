import fs from "node:fs";

export default function globalSetup() {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromium)) {
    throw new Error(
      `Chromium was not found at ${chromium}. Install it: apt-get install -y chromium (or set CHROMIUM_PATH).`,
    );
  }
  fs.mkdirSync("docs/screenshots", { recursive: true });
}
