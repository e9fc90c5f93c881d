/**
 * Row-vector 4×4 matrices as Maya uses them (`xform -q -matrix`): 16 numbers, row-major, the
 * translation in the last row, and `world = local × parentWorld`. Angles are in degrees and
 * rotations compose in the xyz order.
 */
export type Matrix = number[];
/** A 3-vector. */
export type Vector3 = [number, number, number];

const radians = Math.PI / 180;

/** The identity matrix. */
export function identity(): Matrix {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}

/** `a × b`. */
export function multiply(a: Matrix, b: Matrix): Matrix {
  const out = new Array<number>(16).fill(0);
  for (let row = 0; row < 4; row++) {
    for (let column = 0; column < 4; column++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += (a[row * 4 + k] ?? 0) * (b[k * 4 + column] ?? 0);
      out[row * 4 + column] = sum;
    }
  }
  return out;
}

/** Rotation matrix for xyz Euler angles in degrees (X applied first). */
export function rotationMatrix(rotation: Vector3): Matrix {
  const [x, y, z] = rotation.map((angle) => angle * radians) as Vector3;
  const rx = [
    1,
    0,
    0,
    0,
    0,
    Math.cos(x),
    Math.sin(x),
    0,
    0,
    -Math.sin(x),
    Math.cos(x),
    0,
    0,
    0,
    0,
    1,
  ];
  const ry = [
    Math.cos(y),
    0,
    -Math.sin(y),
    0,
    0,
    1,
    0,
    0,
    Math.sin(y),
    0,
    Math.cos(y),
    0,
    0,
    0,
    0,
    1,
  ];
  const rz = [
    Math.cos(z),
    Math.sin(z),
    0,
    0,
    -Math.sin(z),
    Math.cos(z),
    0,
    0,
    0,
    0,
    1,
    0,
    0,
    0,
    0,
    1,
  ];
  return multiply(multiply(rx, ry), rz);
}

/** `scale × rotate × translate`: the local matrix of a transform with zero pivots. */
export function compose(translate: Vector3, rotate: Vector3, scale: Vector3): Matrix {
  const scaled = [scale[0], 0, 0, 0, 0, scale[1], 0, 0, 0, 0, scale[2], 0, 0, 0, 0, 1];
  const matrix = multiply(scaled, rotationMatrix(rotate));
  matrix[12] = translate[0];
  matrix[13] = translate[1];
  matrix[14] = translate[2];
  return matrix;
}

/** Translation, xyz rotation (degrees) and scale of a matrix without shear. */
export function decompose(matrix: Matrix): { translate: Vector3; rotate: Vector3; scale: Vector3 } {
  const at = (index: number): number => matrix[index] ?? 0;
  const rows: Vector3[] = [
    [at(0), at(1), at(2)],
    [at(4), at(5), at(6)],
    [at(8), at(9), at(10)],
  ];
  const scale = rows.map((row) => Math.hypot(...row)) as Vector3;
  // A negative determinant means a mirror; Maya reports it as a negative X scale.
  const determinant =
    at(0) * (at(5) * at(10) - at(6) * at(9)) -
    at(1) * (at(4) * at(10) - at(6) * at(8)) +
    at(2) * (at(4) * at(9) - at(5) * at(8));
  if (determinant < 0) scale[0] = -scale[0];
  const r = rows.map((row, index) => row.map((value) => value / (scale[index] || 1))) as Vector3[];
  const [r0, r1, r2] = r as [Vector3, Vector3, Vector3];
  // For R = Rx·Ry·Rz (row vectors): r0[2] = -sin(y).
  const sinY = Math.max(-1, Math.min(1, -r0[2]));
  const y = Math.asin(sinY);
  let x: number;
  let z: number;
  if (Math.abs(sinY) < 0.999999) {
    x = Math.atan2(r1[2], r2[2]);
    z = Math.atan2(r0[1], r0[0]);
  } else {
    // Gimbal lock: put the whole remaining rotation on X.
    z = 0;
    x = Math.atan2(-r2[1], r1[1]);
  }
  return {
    translate: [clean(at(12)), clean(at(13)), clean(at(14))],
    rotate: [clean(x / radians), clean(y / radians), clean(z / radians)],
    scale: scale.map(clean) as Vector3,
  };
}

/** Inverse of an affine matrix. */
export function invert(matrix: Matrix): Matrix {
  const m = (row: number, column: number): number => matrix[row * 4 + column] ?? 0;
  const a = [
    [m(0, 0), m(0, 1), m(0, 2)],
    [m(1, 0), m(1, 1), m(1, 2)],
    [m(2, 0), m(2, 1), m(2, 2)],
  ] as [Vector3, Vector3, Vector3];
  const c = (r: number, k: number): number => a[r]?.[k] ?? 0;
  const det =
    c(0, 0) * (c(1, 1) * c(2, 2) - c(1, 2) * c(2, 1)) -
    c(0, 1) * (c(1, 0) * c(2, 2) - c(1, 2) * c(2, 0)) +
    c(0, 2) * (c(1, 0) * c(2, 1) - c(1, 1) * c(2, 0));
  const d = det === 0 ? 1 : det;
  const inv = [
    (c(1, 1) * c(2, 2) - c(1, 2) * c(2, 1)) / d,
    (c(0, 2) * c(2, 1) - c(0, 1) * c(2, 2)) / d,
    (c(0, 1) * c(1, 2) - c(0, 2) * c(1, 1)) / d,
    (c(1, 2) * c(2, 0) - c(1, 0) * c(2, 2)) / d,
    (c(0, 0) * c(2, 2) - c(0, 2) * c(2, 0)) / d,
    (c(0, 2) * c(1, 0) - c(0, 0) * c(1, 2)) / d,
    (c(1, 0) * c(2, 1) - c(1, 1) * c(2, 0)) / d,
    (c(0, 1) * c(2, 0) - c(0, 0) * c(2, 1)) / d,
    (c(0, 0) * c(1, 1) - c(0, 1) * c(1, 0)) / d,
  ];
  const t: Vector3 = [m(3, 0), m(3, 1), m(3, 2)];
  const out = identity();
  for (let row = 0; row < 3; row++) {
    for (let column = 0; column < 3; column++) out[row * 4 + column] = inv[row * 3 + column] ?? 0;
  }
  for (let column = 0; column < 3; column++) {
    out[12 + column] = -(
      t[0] * (inv[column] ?? 0) +
      t[1] * (inv[3 + column] ?? 0) +
      t[2] * (inv[6 + column] ?? 0)
    );
  }
  return out;
}

/** A point transformed by a matrix (row vector × matrix). */
export function transformPoint(point: Vector3, matrix: Matrix): Vector3 {
  const m = (index: number): number => matrix[index] ?? 0;
  return [
    clean(point[0] * m(0) + point[1] * m(4) + point[2] * m(8) + m(12)),
    clean(point[0] * m(1) + point[1] * m(5) + point[2] * m(9) + m(13)),
    clean(point[0] * m(2) + point[1] * m(6) + point[2] * m(10) + m(14)),
  ];
}

/** A direction transformed by a matrix (no translation). */
export function transformVector(vector: Vector3, matrix: Matrix): Vector3 {
  const m = (index: number): number => matrix[index] ?? 0;
  return [
    clean(vector[0] * m(0) + vector[1] * m(4) + vector[2] * m(8)),
    clean(vector[0] * m(1) + vector[1] * m(5) + vector[2] * m(9)),
    clean(vector[0] * m(2) + vector[1] * m(6) + vector[2] * m(10)),
  ];
}

/** Rounds away float noise (1e-12) so results read like Maya's. */
export function clean(value: number): number {
  const rounded = Math.round(value * 1e10) / 1e10;
  return Object.is(rounded, -0) ? 0 : rounded;
}
