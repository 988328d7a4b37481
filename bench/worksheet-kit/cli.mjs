// Command-line flags of the worksheet generators: `--name value`, or `--name` alone for "true".
export function parseArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(
    argv.reduce((acc, a, i, arr) => {
      if (a.startsWith("--")) acc.push([a.slice(2), arr[i + 1] && !arr[i + 1].startsWith("--") ? arr[i + 1] : "true"]);
      return acc;
    }, []),
  );
}
