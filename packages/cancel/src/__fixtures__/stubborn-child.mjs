// A child process for the forceful-cancellation tests. With "ignore" it shrugs off SIGTERM, so
// only SIGKILL stops it; with "obey" it exits cleanly on SIGTERM. It says "ready" once the
// handler is installed and then idles until killed.
const mode = process.argv[2] ?? "ignore";
process.on("SIGTERM", () => {
  if (mode === "obey") process.exit(0);
  process.stdout.write("SIGTERM ignored\n");
});
setInterval(() => {}, 1000);
process.stdout.write("ready\n");
