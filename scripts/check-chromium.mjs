// The end-to-end tests drive Debian's Chromium; no browser is ever downloaded.
import fs from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!fs.existsSync(chromium)) {
  console.error(
    `Chromium was not found at ${chromium}. Install it with: sudo apt-get update && sudo apt-get install -y chromium (or set CHROMIUM_PATH).`,
  );
  process.exit(1);
}
