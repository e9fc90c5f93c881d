import { commandLineOf, descendantsOf } from "@dcc/test-support";

/**
 * Kills Blender itself: the adapter's `pid` is bubblewrap's under the OS sandbox, and killing that
 * wrapper first leaves Blender a moment in which it still answers its connection. Blender is the
 * process whose executable is `blender` (bubblewrap's own command lines name it too, as an
 * argument), and one that ends meanwhile is no error.
 */
export function killBlender(pid: number): void {
  const isBlender = (child: number): boolean =>
    /(^|\/)blender$/.test(commandLineOf(child).split(" ")[0] ?? "");
  const inside = descendantsOf(pid).filter(isBlender);
  for (const target of inside.length > 0 ? inside : [pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
}
