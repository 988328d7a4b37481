import { loadConfig } from "../config";
import { backup, KEY_WARNING } from "../platform/backup";

const target = process.argv[2];
if (!target) {
  process.stderr.write("Usage: npm run backup -- DIR\n");
  process.exit(2);
}
try {
  const { folder, manifest } = await backup(loadConfig(), target);
  process.stdout.write(
    `Backup written to ${folder} (database: ${manifest.database.kind}, ${manifest.files.length} files)\n`,
  );
  process.stderr.write(`WARNING: ${KEY_WARNING}\n`);
} catch (error) {
  process.stderr.write(`Backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
