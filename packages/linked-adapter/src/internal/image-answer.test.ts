import { CommandError, HostImage } from "@dcc/executor";
import { describe, expect, it } from "vitest";
import { imageAnswer } from "./image-answer.ts";

const create = (init: ConstructorParameters<typeof CommandError>[0]): CommandError =>
  new CommandError(init);
// A 1x1 PNG's first bytes are enough for HostImage, which checks the signature only.
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

function refusal(answer: unknown): CommandError {
  try {
    imageAnswer("view.capture", answer, create);
  } catch (error) {
    expect(error).toBeInstanceOf(CommandError);
    return error as CommandError;
  }
  throw new Error("no refusal");
}

describe("imageAnswer", () => {
  it("makes a HostImage of image_result's answer", () => {
    const image = imageAnswer(
      "view.capture",
      { mimeType: "image/png", width: 2, height: 3, data: png.toString("base64") },
      create,
    );
    expect(HostImage.is(image)).toBe(true);
    expect([image.mimeType, image.width, image.height]).toEqual(["image/png", 2, 3]);
    expect(Buffer.from(image.data)).toEqual(png);
  });

  it.each([
    [null, "got null"],
    [[1], "got [1]"],
    [{ mimeType: "image/png", width: 1, height: 1, data: "***" }, "its data is not base64 text"],
    [{ mimeType: "image/gif", width: 1, height: 1, data: "" }, 'its mimeType is "image/gif"'],
    [{ mimeType: "image/png", width: 1, height: 1, data: "AAAA" }, "not a PNG file"],
    [{ mimeType: "image/png", width: 0, height: 1, data: png.toString("base64") }, "width"],
  ])("refuses %j with INVALID_IMAGE, saying why", (answer, why) => {
    const error = refusal(answer);
    expect(error.code).toBe("INVALID_IMAGE");
    expect(error.completion).toBe("complete");
    expect(error.command).toBe("view.capture");
    expect(error.message).toContain("view.capture answered no image: ");
    expect(error.message).toContain(why);
  });
});
