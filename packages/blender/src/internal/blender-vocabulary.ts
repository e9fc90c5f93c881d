import type { BlenderOperatorData } from "../blender-operator-data.ts";
import { nearestTestedVersion } from "./running-operator-data.ts";

/** What a Blender calls things that other versions name differently. */
export interface BlenderVocabulary {
  /** Blender's version string. */
  readonly blender: string;
  /** The EEVEE engine id (`BLENDER_EEVEE`, or `BLENDER_EEVEE_NEXT` in 4.2 to 4.5). */
  readonly eevee: string;
  /** The Principled BSDF node's input names. */
  readonly principledInputs: readonly string[];
  /** The exporters among its operators (`wm.obj_export`, `wm.stl_export`, ...). */
  readonly exporters: readonly string[];
}

// The Principled BSDF inputs of each tested Blender, as it lists them (read from each).
const principledInputs: Readonly<Record<string, readonly string[]>> = {
  "3.4.1": [
    "Base Color",
    "Subsurface",
    "Subsurface Radius",
    "Subsurface Color",
    "Subsurface IOR",
    "Subsurface Anisotropy",
    "Metallic",
    "Specular",
    "Specular Tint",
    "Roughness",
    "Anisotropic",
    "Anisotropic Rotation",
    "Sheen",
    "Sheen Tint",
    "Clearcoat",
    "Clearcoat Roughness",
    "IOR",
    "Transmission",
    "Transmission Roughness",
    "Emission",
    "Emission Strength",
    "Alpha",
    "Normal",
    "Clearcoat Normal",
    "Tangent",
    "Weight",
  ],
  "4.3.2": [
    "Base Color",
    "Metallic",
    "Roughness",
    "IOR",
    "Alpha",
    "Normal",
    "Weight",
    "Diffuse Roughness",
    "Subsurface Weight",
    "Subsurface Radius",
    "Subsurface Scale",
    "Subsurface IOR",
    "Subsurface Anisotropy",
    "Specular IOR Level",
    "Specular Tint",
    "Anisotropic",
    "Anisotropic Rotation",
    "Tangent",
    "Transmission Weight",
    "Coat Weight",
    "Coat Roughness",
    "Coat IOR",
    "Coat Tint",
    "Coat Normal",
    "Sheen Weight",
    "Sheen Roughness",
    "Sheen Tint",
    "Emission Color",
    "Emission Strength",
    "Thin Film Thickness",
    "Thin Film IOR",
  ],
  "5.2.2": [
    "Base Color",
    "Metallic",
    "Roughness",
    "IOR",
    "Alpha",
    "Thin Wall",
    "Normal",
    "Weight",
    "Diffuse Roughness",
    "Subsurface Weight",
    "Subsurface Radius",
    "Subsurface Scale",
    "Subsurface IOR",
    "Subsurface Anisotropy",
    "Specular IOR Level",
    "Specular Tint",
    "Anisotropic",
    "Anisotropic Rotation",
    "Tangent",
    "Transmission Weight",
    "Coat Weight",
    "Coat Roughness",
    "Coat IOR",
    "Coat Tint",
    "Coat Normal",
    "Sheen Weight",
    "Sheen Roughness",
    "Sheen Tint",
    "Emission Color",
    "Emission Strength",
    "Thin Film Thickness",
    "Thin Film IOR",
  ],
};

/** The EEVEE engine id of Blender `version`: `BLENDER_EEVEE_NEXT` in 4.2 to 4.5. */
export function eeveeEngineOf(version: string): string {
  const [major, minor] = version.split(".").map((part) => Number.parseInt(part, 10));
  return major === 4 && (minor ?? 0) >= 2 ? "BLENDER_EEVEE_NEXT" : "BLENDER_EEVEE";
}

/** The exporters among a Blender's operators (collection exporters aside). */
export function exportersOf(data: BlenderOperatorData): string[] {
  return data.operators
    .map((operator) => operator.name)
    .filter((name) => /^export_|_export$/.test(name) && !name.startsWith("collection."));
}

/**
 * The vocabulary of a Blender from its operators alone (the EEVEE id by version, the Principled
 * inputs of the nearest tested version): what a front end without Blender, or an adapter
 * before its Blender started, says; the running Blender's own answers replace it after start.
 */
export function vocabularyOf(data: BlenderOperatorData): BlenderVocabulary {
  return {
    blender: data.blender,
    eevee: eeveeEngineOf(data.blender),
    principledInputs: principledInputs[nearestTestedVersion(data.blender)] ?? [],
    exporters: exportersOf(data),
  };
}
