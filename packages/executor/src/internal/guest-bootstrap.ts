// Guest-side JavaScript evaluated in every fresh context before the script. It receives the raw
// host functions as arguments (they never become globals), installs `dispatch`, `console` and
// `progress`, removes what a script must not have, and returns the output serializer
// (`serialize(value, maxChars)`, see OUTPUT_SERIALIZER).

/**
 * The output serializer for objects, compiled on first use: most scripts return a primitive, and
 * compiling this in every fresh context costs about a third of the bootstrap. A function
 * expression over built-ins the bootstrap captured before the script ran.
 *
 * `serialize(value, maxChars)` returns the JSON text of `value` when it fits `maxChars`. When it
 * does not, the value is cut structurally, as the MCP bridge cuts a result: arrays keep their
 * first items, objects their first keys, strings their start, and values below a depth are
 * summarised, each cut saying what it left out; the caps go down until the text fits. The report
 * of what was cut comes first: `"\u0001" + reportJson + "\u0001" + text` (JSON text never starts
 * with a control character). Every walk is bounded by the budget of characters: it stops as soon
 * as what it would produce is known to be over the limit, so the work and the memory stay in
 * proportion to the limit, not to the value.
 */
const OUTPUT_SERIALIZER = `(function (stringify, isArray, keys, defineProperty, StringOf, TypeErrorClass, SetClass, sliceOf) {
  "use strict";
  const identifier = /^[A-Za-z_$][\\w$]*$/;
  // The walk's position: segments[0..depth) are the keys and indices from the output down. A path
  // is spelt out only for an error, not at every value.
  const segments = [];
  const pathTo = (depth) => {
    let path = "output";
    for (let i = 0; i < depth; i++) {
      const segment = segments[i];
      path =
        typeof segment === "number" ? path + "[" + segment + "]"
        : identifier.test(segment) ? path + "." + segment
        : path + "[" + stringify(segment) + "]";
    }
    return path;
  };
  const outputError = (what, depth) => {
    const error = new TypeErrorClass("Output is not JSON-representable: " + what + " at " + pathTo(depth));
    error.name = "OutputError";
    return error;
  };
  const define = (out, key, item) =>
    defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  // Thrown (and caught here) once a walk has produced more than its budget; never escapes.
  const overBudget = { over: true };
  // Characters the walk may still produce. Each value spends at least what its JSON takes
  // (a lower bound: no escapes), so a walk that overspends is surely over the limit.
  let budget = 0;
  const toJson = (value, depth, stack) => {
    switch (typeof value) {
      case "string":
        budget -= value.length + 2;
        if (budget < 0) throw overBudget;
        return value;
      case "boolean": budget -= 4; if (budget < 0) throw overBudget; return value;
      // A number takes one character at least, three unless it is an integer ("0.5").
      case "number": budget -= value % 1 === 0 ? 1 : 3; if (budget < 0) throw overBudget; return value;
      case "bigint": return toJson(StringOf(value), depth, stack);
      case "undefined": return toJson(null, depth, stack);
      case "function": throw outputError("a function", depth);
      case "symbol": throw outputError("a symbol", depth);
    }
    if (value === null) {
      budget -= 4;
      if (budget < 0) throw overBudget;
      return null;
    }
    if (typeof value.toJSON === "function") {
      value = value.toJSON();
      if (typeof value !== "object" || value === null) return toJson(value, depth, stack);
    }
    if (stack.has(value)) throw outputError("a cycle", depth);
    budget -= 2;
    if (budget < 0) throw overBudget;
    stack.add(value);
    let out;
    if (isArray(value)) {
      out = [];
      budget -= value.length; // the commas, and then some
      if (budget < 0) throw overBudget;
      for (let i = 0; i < value.length; i++) {
        segments[depth] = i;
        out[i] = toJson(value[i], depth + 1, stack);
      }
    } else {
      out = {};
      for (const key of keys(value)) {
        budget -= key.length + 4;
        if (budget < 0) throw overBudget;
        segments[depth] = key;
        define(out, key, toJson(value[key], depth + 1, stack));
      }
    }
    stack.delete(value);
    return out;
  };
  // The same walk within caps, counting what it leaves out in \`cut\`.
  const spendText = (text) => {
    budget -= text.length + 3;
    if (budget < 0) throw overBudget;
    return text;
  };
  const shrink = (value, depth, stack, caps, cut) => {
    switch (typeof value) {
      case "string":
        if (value.length <= caps.chars) return spendText(value);
        cut.stringsShortened++;
        cut.charsLeftOut += value.length - caps.chars;
        return spendText(sliceOf(value, 0, caps.chars) + "… [" + (value.length - caps.chars) + " more chars]");
      case "boolean": budget -= 5; if (budget < 0) throw overBudget; return value;
      case "number":
        budget -= (value === value && value !== 1 / 0 && value !== -1 / 0 ? StringOf(value).length : 4) + 1;
        if (budget < 0) throw overBudget;
        return value;
      case "bigint": return shrink(StringOf(value), depth, stack, caps, cut);
      case "undefined": return shrink(null, depth, stack, caps, cut);
      case "function": throw outputError("a function", depth);
      case "symbol": throw outputError("a symbol", depth);
    }
    if (value === null) {
      budget -= 5;
      if (budget < 0) throw overBudget;
      return null;
    }
    if (typeof value.toJSON === "function") {
      value = value.toJSON();
      if (typeof value !== "object" || value === null) return shrink(value, depth, stack, caps, cut);
    }
    if (stack.has(value)) throw outputError("a cycle", depth);
    if (depth >= caps.depth) {
      cut.valuesSummarised++;
      return spendText(isArray(value) ? "[array of " + value.length + "]" : "[object]");
    }
    budget -= 3;
    if (budget < 0) throw overBudget;
    stack.add(value);
    let out;
    if (isArray(value)) {
      out = [];
      const kept = value.length < caps.items ? value.length : caps.items;
      for (let i = 0; i < kept; i++) {
        segments[depth] = i;
        out[i] = shrink(value[i], depth + 1, stack, caps, cut);
      }
      if (value.length > kept) {
        cut.itemsLeftOut += value.length - kept;
        out[kept] = spendText("… " + (value.length - kept) + " more items");
      }
    } else {
      out = {};
      const names = keys(value);
      const kept = names.length < caps.keys ? names.length : caps.keys;
      for (let i = 0; i < kept; i++) {
        const key = names[i];
        budget -= key.length + 3;
        if (budget < 0) throw overBudget;
        segments[depth] = key;
        define(out, key, shrink(value[key], depth + 1, stack, caps, cut));
      }
      if (names.length > kept) {
        cut.keysLeftOut += names.length - kept;
        define(out, "…", spendText((names.length - kept) + " more keys"));
      }
    }
    stack.delete(value);
    return out;
  };
  const truncated = (text, cut, maxChars, originalChars) => {
    const report = {
      limitChars: maxChars,
      keptChars: text.length,
      itemsLeftOut: cut.itemsLeftOut,
      keysLeftOut: cut.keysLeftOut,
      stringsShortened: cut.stringsShortened,
      charsLeftOut: cut.charsLeftOut,
      valuesSummarised: cut.valuesSummarised,
    };
    if (originalChars !== undefined) report.originalChars = originalChars;
    return "\\u0001" + stringify(report) + "\\u0001" + text;
  };
  const fit = (value, maxChars, originalChars) => {
    let caps = { items: 200, keys: 200, chars: 4000, depth: 8 };
    for (let round = 0; round < 12; round++) {
      const cut = { itemsLeftOut: 0, keysLeftOut: 0, stringsShortened: 0, charsLeftOut: 0, valuesSummarised: 0 };
      budget = maxChars;
      let shrunk = overBudget;
      try {
        shrunk = shrink(value, 0, new SetClass(), caps, cut);
      } catch (error) {
        if (error !== overBudget) throw error;
      }
      if (shrunk !== overBudget) {
        const text = stringify(shrunk);
        if (text.length <= maxChars) return truncated(text, cut, maxChars, originalChars);
      }
      // A walk that ran out of budget was far over: its caps go down faster.
      const by = shrunk === overBudget ? 2 : 1;
      caps = {
        items: caps.items >> by || 1,
        keys: caps.keys >> by || 1,
        chars: caps.chars >> by > 16 ? caps.chars >> by : 16,
        depth: caps.depth > 1 ? caps.depth - 1 : 1,
      };
    }
    // Not even one item per level fits (the limit is tiny): a sentence in its place.
    const cut = { itemsLeftOut: 0, keysLeftOut: 0, stringsShortened: 0, charsLeftOut: 0, valuesSummarised: 1 };
    let text = stringify("[output left out: over the output limit of " + maxChars + " characters]");
    if (text.length > maxChars) text = "null";
    return truncated(text, cut, maxChars, originalChars);
  };
  return function serialize(value, maxChars) {
    budget = maxChars;
    let copy = overBudget;
    try {
      copy = toJson(value, 0, new SetClass());
    } catch (error) {
      if (error !== overBudget) throw error;
    }
    if (copy === overBudget) return fit(value, maxChars, undefined);
    const text = stringify(copy);
    if (text.length <= maxChars) return text;
    return fit(value, maxChars, text.length);
  };
})`;

/**
 * A function expression: `(hostDispatch, hostLog, hostProgress, hostJobError, maxLogChars) =>
 * serialize`. Built-ins are captured up front so a script that overwrites `JSON` only breaks
 * itself.
 */
export const GUEST_BOOTSTRAP: string = `(function (hostDispatch, hostLog, hostProgress, hostJobError, maxLogChars) {
  "use strict";
  const g = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const isArray = Array.isArray;
  const keys = Object.keys;
  const defineProperty = Object.defineProperty;
  const StringOf = String;
  const ErrorClass = Error;
  const TypeErrorClass = TypeError;
  const SetClass = Set;
  const sliceOf = Function.prototype.call.bind(StringOf.prototype.slice);
  // Captured now: the serializer is compiled after the script ran, which may replace eval.
  const indirectEval = eval;

  const describe = (value) => {
    switch (typeof value) {
      case "string": return value;
      case "undefined": return "undefined";
      case "bigint": return StringOf(value) + "n";
      case "symbol": return StringOf(value);
      case "function": return "[Function " + (value.name || "anonymous") + "]";
    }
    if (value instanceof ErrorClass) return StringOf(value.name) + ": " + StringOf(value.message);
    try {
      const text = stringify(value, (key, item) => (typeof item === "bigint" ? StringOf(item) : item));
      return text === undefined ? StringOf(value) : text;
    } catch {
      return StringOf(value);
    }
  };
  const format = (items) => {
    let text = "";
    for (let i = 0; i < items.length; i++) {
      text += (i === 0 ? "" : " ") + describe(items[i]);
      if (text.length > maxLogChars) return text.slice(0, maxLogChars);
    }
    return text;
  };
  const logger = (level) => function () { hostLog(level, format(arguments)); };
  const consoleObject = {
    log: logger("log"), info: logger("info"), warn: logger("warn"), error: logger("error"),
    debug: logger("log"), trace: logger("log"),
  };
  defineProperty(g, "console", { value: consoleObject, writable: true, configurable: true });

  g.dispatch = function dispatch(name, args) {
    const json = args === undefined ? "null" : stringify(args);
    const reply = parse(hostDispatch(json + "\\u0001" + StringOf(name)));
    if (reply.ok) return reply.value;
    const error = new ErrorClass(reply.error.message);
    error.name = "CommandError";
    error.command = reply.error.command;
    error.code = reply.error.code;
    error.completion = reply.error.completion;
    if (reply.error.data !== undefined) error.data = reply.error.data;
    throw error;
  };
  g.progress = function progress(done, total, message) {
    hostProgress(
      Number(done),
      total === undefined || total === null ? undefined : Number(total),
      // Cut here: the host copies only what it keeps.
      message === undefined || message === null ? undefined : sliceOf(StringOf(message), 0, 1000),
    );
  };
  // An error thrown by a promise callback becomes a rejection that nothing may ever read: when the
  // memory or stack limit trips in one, the script is left waiting on a promise that can never
  // settle. The host is shown each such error (it keeps the limits among them) before it goes on
  // as it would have. \`then\` is the one path: \`catch\`, \`finally\` and thenable jobs call it.
  const promisePrototype = g.Promise.prototype;
  const originalThen = promisePrototype.then;
  const apply = Reflect.apply;
  const watched = (callback) => {
    if (typeof callback !== "function") return callback;
    return function (value) {
      try {
        return callback(value);
      } catch (error) {
        hostJobError(error);
        throw error;
      }
    };
  };
  defineProperty(promisePrototype, "then", {
    value: {
      then(onFulfilled, onRejected) {
        try {
          return apply(originalThen, this, [watched(onFulfilled), watched(onRejected)]);
        } catch (error) {
          hostJobError(error);
          throw error;
        }
      },
    }.then,
    writable: true,
    configurable: true,
  });

  // Called by the handler wrapped around each async function body (see instrument-async.ts).
  defineProperty(g, "__dccAsyncError", {
    value: function __dccAsyncError(error) {
      hostJobError(error);
    },
  });

  // Atomics.wait could block the worker thread where no interrupt reaches it.
  delete g.Atomics;
  delete g.SharedArrayBuffer;

  // Primitives need no walk; anything else compiles the serializer once (see OUTPUT_SERIALIZER).
  let serializeObject;
  return function serialize(value, maxChars) {
    switch (typeof value) {
      case "boolean": case "number": return stringify(value);
      case "bigint": value = StringOf(value); break;
      case "undefined": return "null";
    }
    if (value === null) return "null";
    // A string is measured before it is copied into its JSON text: it may be far over the limit.
    if (typeof value === "string" && value.length + 2 <= maxChars) {
      const text = stringify(value);
      if (text.length <= maxChars) return text;
    }
    if (serializeObject === undefined) {
      serializeObject = indirectEval(${JSON.stringify(OUTPUT_SERIALIZER)})(
        stringify, isArray, keys, defineProperty, StringOf, TypeErrorClass, SetClass, sliceOf,
      );
    }
    return serializeObject(value, maxChars);
  };
})`;
