import { loadConfig } from "../config";
import { KEY_WARNING, restore } from "../platform/backup";

const source = process.argv[2];
if (!source) {
  process.stderr.write("Usage: npm run restore -- BACKUP_FOLDER\n");
  process.exit(2);
}
try {
  const manifest = await restore(loadConfig(), source);
  process.stdout.write(
    `Restored the ${manifest.database.kind} database and ${manifest.files.length} files from ${source}\n`,
  );
  process.stderr.write(`Reminder: ${KEY_WARNING}\n`);
} catch (error) {
  process.stderr.write(`Restore failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
