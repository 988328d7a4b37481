// `npm run -s generate-report -- FILE.json` (or `-` for standard input): reads one study, prints one
// draft as JSON. The contract is in ../shared/clinical-criteria.md. Exit status: 0 done, 2 invalid
// input or usage, 1 the input could not be read.
import { readFile } from "node:fs/promises";
import { describeIssue, studySchema } from "../../domain/contracts/study";
import { type CriteriaSetId, criteriaSetIds } from "../../domain/report-engine/criteria-sets";
import { generateDraft } from "../../domain/report-engine/generate-draft";
import { type Spelling, spellings } from "../../domain/report-engine/spelling";

const usage = "usage: generate-report [--criteria-set <id>] [--spelling en-US|en-GB] <study.json | ->";

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

function parseArgs(argv: readonly string[]): {
  file: string;
  criteriaSetId: CriteriaSetId | undefined;
  spelling: Spelling | undefined;
} {
  let file: string | undefined;
  let criteriaSetId: CriteriaSetId | undefined;
  let spelling: Spelling | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--criteria-set") {
      const id = argv[++i];
      if (!id || !(criteriaSetIds as readonly string[]).includes(id)) {
        throw new CliError(`--criteria-set: expected one of ${criteriaSetIds.join(", ")}`, 2);
      }
      criteriaSetId = id as CriteriaSetId;
    } else if (arg === "--spelling") {
      const value = argv[++i];
      if (!value || !(spellings as readonly string[]).includes(value)) {
        throw new CliError(`--spelling: expected one of ${spellings.join(", ")}`, 2);
      }
      spelling = value as Spelling;
    } else if (file === undefined && (arg === "-" || !arg.startsWith("-"))) {
      file = arg;
    } else {
      throw new CliError(`unexpected argument ${JSON.stringify(arg)}; ${usage}`, 2);
    }
  }
  if (file === undefined) throw new CliError(usage, 2);
  return { file, criteriaSetId, spelling };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

async function readInput(file: string): Promise<string> {
  if (file === "-") return readStdin();
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
    throw new CliError(`cannot read ${file}: ${reason}`, 1);
  }
}

async function main(): Promise<void> {
  const { file, criteriaSetId, spelling } = parseArgs(process.argv.slice(2));
  // Editors on Windows save UTF-8 with a byte-order mark; it is not part of the JSON.
  const text = (await readInput(file)).replace(/^\uFEFF/, "");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(`invalid JSON: ${(error as Error).message.split("\n")[0]}`, 2);
  }
  const parsed = studySchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new CliError(first ? describeIssue(first, json) : "invalid study", 2);
  }
  const draft = generateDraft(parsed.data, {
    ...(criteriaSetId ? { criteriaSetId } : {}),
    ...(spelling ? { spelling } : {}),
  });
  process.stdout.write(`${JSON.stringify(draft, null, 2)}\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`generate-report: ${message.replace(/\s*\n\s*/g, " ")}\n`);
  process.exitCode = error instanceof CliError ? error.exitCode : 1;
});
