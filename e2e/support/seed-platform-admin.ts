// Run by start-e2e-server.mjs before the server starts: the platform admin of the admin journeys is an account
// granted the role on the server, as `npm run admin:grant` does in production (an e-mail alone grants nothing).
import { loadConfig } from "../../server/config";
import { openDatabase } from "../../server/db/client";
import { registerClinic } from "../../server/features/auth/auth.service";
import { setAuditKey } from "../../server/platform/audit";
import { grantPlatformAdmin } from "../../server/platform/platform-admin";
import { loadSecrets } from "../../server/platform/secrets";

export const E2E_PLATFORM_ADMIN = "webmaster@sonoscribe.test";
const PASSWORD = "correct horse battery";

const config = loadConfig();
setAuditKey(loadSecrets(config.dataDir, config).auditKey);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await registerClinic(
    database.db,
    {
      name: "Platform Owner",
      email: E2E_PLATFORM_ADMIN,
      adminFirstName: "Web",
      adminLastName: "Master",
      password: PASSWORD,
      phone: null,
      address: null,
      city: null,
      state: null,
      zipCode: null,
    },
    {},
  );
  await grantPlatformAdmin(database.db, E2E_PLATFORM_ADMIN);
} finally {
  await database.close();
}
