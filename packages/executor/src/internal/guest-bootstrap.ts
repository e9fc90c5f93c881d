// Guest-side JavaScript evaluated in every fresh context before the script. It receives the raw
// host functions as arguments (they never become globals), installs `dispatch`, `console` and
// `progress`, removes what a script must not have, and returns the output serializer.

/**
 * The output serializer for objects, compiled on first use: most scripts return a primitive, and
 * compiling this in every fresh context costs about a third of the bootstrap. A function
 * expression over built-ins the bootstrap captured before the script ran.
 */
const OUTPUT_SERIALIZER = `(function (stringify, isArray, keys, defineProperty, StringOf, TypeErrorClass, SetClass) {
  "use strict";
  const identifier = /^[A-Za-z_$][\\w$]*$/;
  const outputError = (what, path) => {
    const error = new TypeErrorClass("Output is not JSON-representable: " + what + " at " + path);
    error.name = "OutputError";
    return error;
  };
  const child = (path, key) =>
    identifier.test(key) ? path + "." + key : path + "[" + stringify(key) + "]";
  const toJson = (value, path, stack) => {
    switch (typeof value) {
      case "string": case "boolean": case "number": return value;
      case "bigint": return StringOf(value);
      case "undefined": return null;
      case "function": throw outputError("a function", path);
      case "symbol": throw outputError("a symbol", path);
    }
    if (value === null) return null;
    if (typeof value.toJSON === "function") {
      value = value.toJSON();
      if (typeof value !== "object" || value === null) return toJson(value, path, stack);
    }
    if (stack.has(value)) throw outputError("a cycle", path);
    stack.add(value);
    let out;
    if (isArray(value)) {
      out = [];
      for (let i = 0; i < value.length; i++) out.push(toJson(value[i], path + "[" + i + "]", stack));
    } else {
      out = {};
      for (const key of keys(value)) {
        const item = toJson(value[key], child(path, key), stack);
        defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      }
    }
    stack.delete(value);
    return out;
  };
  return function serialize(value) { return stringify(toJson(value, "output", new SetClass())); };
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
  return function serialize(value) {
    switch (typeof value) {
      case "string": case "boolean": case "number": return stringify(value);
      case "bigint": return stringify(StringOf(value));
      case "undefined": return "null";
    }
    if (value === null) return "null";
    if (serializeObject === undefined) {
      serializeObject = indirectEval(${JSON.stringify(OUTPUT_SERIALIZER)})(
        stringify, isArray, keys, defineProperty, StringOf, TypeErrorClass, SetClass,
      );
    }
    return serializeObject(value);
  };
})`;
