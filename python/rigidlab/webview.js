// rigidlab's view in the browser: a world's bodies drawn with WebGL2, for Jupyter (an anywidget
// module: `render`) and for standalone HTML files (`standalone`). It needs nothing but the
// browser: no three.js, no network.
//
// What it is given (see rigidlab/webview.py, which makes it):
// - scene: {planar, bodies: [{id, name, kind, color, mesh}], meshes: {key: {shape, ...}},
//   links: [{kind, a, anchor_a, b, anchor_b}], limits: [[x0, y0, z0], [x1, y1, z1]]}
// - poses: float32, (n, 7) per frame: position (x, y, z) and quaternion (x, y, z, w) of each
//   body, in the scene's order; a recording gives `frames` (T poses) and `times` (float64, T).
// - contacts: float32, (k, 3) contact points (live view).

const LIGHT = normalize([0.36, 0.8, 0.48]);

// Each body's pose and colour come from a texture, three texels a body (position, quaternion,
// colour), and each group's mesh is stored once per body of a chunk, with the copy's number: a
// chunk of bodies is one plain draw. Instanced draws cost a software renderer (a browser
// without a GPU) about 10 us an instance whatever the mesh (500 one-triangle instances took
// 5 ms a frame in SwiftShader), half the frame of 1 000 bodies. Bodies a row of the texture
// holds, and bodies a draw holds (the copies of a mesh stored):
const BODIES_PER_ROW = 256;
const CHUNK = 256;

// Body i's position, orientation and colour (see above).
const BODY = `
uniform highp sampler2D u_bodies;
uniform int u_first;
in float a_copy;
vec3 body_x, body_color;
vec4 body_q;
void fetch_body() {
  int i = u_first + int(a_copy);
  int row = i / ${BODIES_PER_ROW};
  int col = 3 * (i - row * ${BODIES_PER_ROW});
  body_x = texelFetch(u_bodies, ivec2(col, row), 0).xyz;
  body_q = texelFetch(u_bodies, ivec2(col + 1, row), 0);
  body_color = texelFetch(u_bodies, ivec2(col + 2, row), 0).xyz;
}`;

const MESH_VS = `#version 300 es
in vec3 a_pos;
in vec3 a_normal;
in float a_shade;
${BODY}
uniform mat4 u_viewproj;
uniform float u_lift;
out vec3 v_normal;
out vec3 v_color;
vec3 rot(vec4 q, vec3 v) {
  vec3 t = 2.0 * cross(q.xyz, v);
  return v + q.w * t + cross(q.xyz, t);
}
void main() {
  fetch_body();
  vec3 p = rot(body_q, a_pos) + body_x;
  v_normal = rot(body_q, a_normal);
  v_color = body_color * a_shade;
  gl_Position = u_viewproj * vec4(p, 1.0);
  gl_Position.z -= u_lift * gl_Position.w;
}`;

// The share of a pixel inside an edge (`band`), from `inside`, how far inside it the pixel's
// centre lies (in the units of the outline's size); `coverage` also discards the pixels outside
// an outline. Multisampled (`u_smooth` 1), the share goes out as alpha and alpha to coverage
// smooths the outline, as multisampling smooths a mesh's edges; otherwise the outline is
// exact: a pixel is drawn when its centre is inside.
const COVERAGE = `
float band(float inside) {
  return clamp(inside / max(fwidth(inside), 1e-30) + 0.5, 0.0, 1.0);
}
float coverage(float inside) {
  float share = band(inside);
  if (share <= 0.0 || (u_smooth == 0.0 && inside < 0.0)) discard;
  return share;
}`;

// A 3D ball as a square facing the eye that just covers its outline, the sphere found by
// casting the eye's ray through each pixel (its surface, normal and depth exact): 2 triangles
// a ball instead of 80 to 320, which a software renderer draws several times faster. A ball
// of one colour looks the same however it turns.
const BALL_VS = `#version 300 es
in vec3 a_pos;
${BODY}
uniform mat4 u_viewproj;
uniform vec3 u_eye;
uniform float u_radius;
out vec3 v_point;
out vec3 v_centre;
out vec3 v_color;
void main() {
  fetch_body();
  vec3 d = body_x - u_eye;
  float dist = length(d);
  vec3 forward = d / max(dist, 1e-30);
  vec3 side = cross(forward, abs(forward.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0));
  side = normalize(side);
  vec3 up = cross(side, forward);
  // The outline's cone from the eye meets the plane through the centre in this radius.
  float reach = u_radius * dist / sqrt(max(dist * dist - u_radius * u_radius, 1e-12 * dist * dist));
  v_point = body_x + (a_pos.x * side + a_pos.y * up) * reach;
  v_centre = body_x;
  v_color = body_color;
  gl_Position = u_viewproj * vec4(v_point, 1.0);
}`;

const BALL_FS = `#version 300 es
precision highp float;
in vec3 v_point;
in vec3 v_centre;
in vec3 v_color;
uniform vec3 u_eye;
uniform float u_radius;
uniform vec3 u_light;
uniform mat4 u_viewproj;
uniform float u_smooth;
out vec4 color;
${COVERAGE}
void main() {
  vec3 ray = normalize(v_point - u_eye);
  vec3 oc = u_eye - v_centre;
  float b = dot(oc, ray);
  // How near the ray passes the centre; a ray that misses by less than a pixel's share of
  // the outline meets it at its nearest point (drawn only when multisampled).
  float miss = sqrt(max(dot(oc, oc) - b * b, 0.0));
  float alpha = coverage(u_radius - miss);
  vec3 p = u_eye + (-b - sqrt(max(u_radius * u_radius - miss * miss, 0.0))) * ray;
  vec3 n = normalize(p - v_centre);
  vec4 clip = u_viewproj * vec4(p, 1.0);
  gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;
  float k = 0.45 + 0.55 * max(dot(n, u_light), 0.0);
  color = vec4(min(v_color * k + 0.04, 1.0), alpha);
}`;

const MESH_FS = `#version 300 es
precision highp float;
in vec3 v_normal;
in vec3 v_color;
uniform vec3 u_light;
uniform float u_flat;
out vec4 color;
void main() {
  float k = mix(0.45 + 0.55 * max(dot(normalize(v_normal), u_light), 0.0), 1.0, u_flat);
  color = vec4(min(v_color * k + 0.04, 1.0), 1.0);
}`;

// A 2D disc as a square that just covers it, drawn as the meshes' flat discs are (`flat`): a
// darker rim of 0.12 of the radius and a spoke along the body's x axis, so that its turning
// shows; the circle exact, in 2 triangles instead of some 70.
const DISC_VS = `#version 300 es
in vec3 a_pos;
${BODY}
uniform mat4 u_viewproj;
uniform float u_lift;
uniform float u_radius;
out vec2 v_local;
out vec3 v_color;
void main() {
  fetch_body();
  v_local = a_pos.xy * u_radius;
  // Turned about z by the quaternion (0, 0, sin a/2, cos a/2).
  float c = 1.0 - 2.0 * body_q.z * body_q.z, s = 2.0 * body_q.z * body_q.w;
  vec2 p = vec2(c * v_local.x - s * v_local.y, s * v_local.x + c * v_local.y) + body_x.xy;
  v_color = body_color;
  gl_Position = u_viewproj * vec4(p, body_x.z, 1.0);
  gl_Position.z -= u_lift * gl_Position.w;
}`;

const DISC_FS = `#version 300 es
precision highp float;
in vec2 v_local;
in vec3 v_color;
uniform float u_radius;
uniform float u_smooth;
out vec4 color;
${COVERAGE}
void main() {
  float d = length(v_local);
  float alpha = coverage(u_radius - d);
  float rim = 0.12 * u_radius;
  // The rim and the spoke darken what of the pixel they cover (edges as smooth as the
  // outline's).
  float on_rim = band(d - (u_radius - rim));
  float on_spoke = min(band(v_local.x), band(0.5 * rim - abs(v_local.y)));
  float shade = mix(1.0, 0.6, max(on_rim, on_spoke));
  color = vec4(min(v_color * shade + 0.04, 1.0), alpha);
}`;

const LINE_VS = `#version 300 es
in vec3 a_pos;
in vec3 a_color;
uniform mat4 u_viewproj;
out vec3 v_color;
void main() {
  v_color = a_color;
  gl_Position = u_viewproj * vec4(a_pos, 1.0);
}`;

const LINE_FS = `#version 300 es
precision highp float;
in vec3 v_color;
out vec4 color;
void main() { color = vec4(v_color, 1.0); }`;

function normalize(v) {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

function cross(a, b) {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function rotate(q, v) {
  const t = cross(q, v).map((x) => 2 * x);
  const u = cross(q, t);
  return [v[0] + q[3] * t[0] + u[0], v[1] + q[3] * t[1] + u[1], v[2] + q[3] * t[2] + u[2]];
}

// Column-major 4x4 matrices, as WebGL reads them.
function multiply(a, b) {
  const out = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      out[c * 4 + r] = s;
    }
  }
  return out;
}

function lookAt(eye, target, up) {
  const f = normalize([target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]]);
  const s = normalize(cross(f, up));
  const u = cross(s, f);
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  return new Float32Array([
    s[0], u[0], -f[0], 0,
    s[1], u[1], -f[1], 0,
    s[2], u[2], -f[2], 0,
    -dot(s, eye), -dot(u, eye), dot(f, eye), 1,
  ]);
}

function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  const m = new Float32Array(16);
  m[0] = f / aspect;
  m[5] = f;
  m[10] = (far + near) / (near - far);
  m[11] = -1;
  m[14] = (2 * far * near) / (near - far);
  return m;
}

function orthographic(left, right, bottom, top, near, far) {
  const m = new Float32Array(16);
  m[0] = 2 / (right - left);
  m[5] = 2 / (top - bottom);
  m[10] = -2 / (far - near);
  m[12] = -(right + left) / (right - left);
  m[13] = -(top + bottom) / (top - bottom);
  m[14] = -(far + near) / (far - near);
  m[15] = 1;
  return m;
}

// ---- Meshes, in the body's frame: positions, normals and a shade per vertex. ----

class MeshBuilder {
  constructor() {
    this.pos = [];
    this.normal = [];
    this.shade = [];
    this.indices = [];
    // Vertices shared by triangles are stored once: a software renderer (a browser without a
    // GPU) then shades a smooth ball's vertex once, not once per triangle (six times).
    this.known = new Map();
  }
  vertex(p, n, shade) {
    const key = `${p[0]},${p[1]},${p[2]},${n[0]},${n[1]},${n[2]},${shade}`;
    let i = this.known.get(key);
    if (i === undefined) {
      i = this.pos.length / 3;
      this.known.set(key, i);
      this.pos.push(p[0], p[1], p[2]);
      this.normal.push(n[0], n[1], n[2]);
      this.shade.push(shade);
    }
    this.indices.push(i);
  }
  triangle(a, b, c, n, shade = 1) {
    const normal = n || normalize(cross(
      [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
      [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
    ));
    for (const p of [a, b, c]) this.vertex(p, normal, shade);
  }
  smooth(a, b, c, na, nb, nc) {
    for (const [p, n] of [[a, na], [b, nb], [c, nc]]) this.vertex(p, n, 1);
  }
  // A convex polygon (counter-clockwise seen from its normal) as a fan.
  polygon(points, n, shade = 1) {
    for (let i = 1; i + 1 < points.length; i++) this.triangle(points[0], points[i], points[i + 1], n, shade);
  }
}

// A unit sphere: an icosahedron split `levels` times.
function sphereTriangles(levels) {
  const t = (1 + Math.sqrt(5)) / 2;
  let verts = [
    [-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t],
    [0, -1, -t], [0, 1, -t], [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1],
  ].map(normalize);
  let faces = [
    [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4],
    [11, 10, 2], [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9],
    [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
  ].map((f) => f.map((i) => verts[i]));
  for (let l = 0; l < levels; l++) {
    const next = [];
    for (const [a, b, c] of faces) {
      const mid = (p, q) => normalize([(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2]);
      const ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      next.push([a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]);
    }
    faces = next;
  }
  return faces;
}

// The ends of capsules: finer for a few bodies, coarser for crowds (a software renderer draws
// 1 000 half-balls of 40 triangles several times faster than of 160).
const SPHERES = [sphereTriangles(1), sphereTriangles(2)];
const FINE_SPHERES = 150;

function ball(m, r, centre = [0, 0, 0], keep = () => true, fine = true) {
  for (const tri of SPHERES[fine ? 1 : 0]) {
    if (!keep(tri)) continue;
    const p = tri.map((v) => [centre[0] + r * v[0], centre[1] + r * v[1], centre[2] + r * v[2]]);
    m.smooth(p[0], p[1], p[2], tri[0], tri[1], tri[2]);
  }
}

// A disc's or polygon's outline in the plane z = 0, with a darker rim (and, for a disc, a
// spoke) so that its turning shows.
function flat(m, outline, spoke) {
  const n = [0, 0, 1];
  const c = outline.reduce((s, p) => [s[0] + p[0] / outline.length, s[1] + p[1] / outline.length], [0, 0]);
  const size = Math.max(...outline.map((p) => Math.hypot(p[0] - c[0], p[1] - c[1])));
  const rim = Math.min(0.12 * size, 0.5 * Math.min(...outline.map((p) => Math.hypot(p[0] - c[0], p[1] - c[1]))));
  const inner = outline.map((p) => {
    const d = Math.hypot(p[0] - c[0], p[1] - c[1]) || 1;
    const k = (d - rim) / d;
    return [c[0] + (p[0] - c[0]) * k, c[1] + (p[1] - c[1]) * k, 0];
  });
  m.polygon(inner, n, 1);
  for (let i = 0; i < outline.length; i++) {
    const j = (i + 1) % outline.length;
    const a = [outline[i][0], outline[i][1], 0], b = [outline[j][0], outline[j][1], 0];
    m.triangle(a, b, inner[j], n, 0.6);
    m.triangle(a, inner[j], inner[i], n, 0.6);
  }
  if (spoke) {
    const w = 0.5 * rim;
    m.polygon([[0, -w, 0], [spoke, -w, 0], [spoke, w, 0], [0, w, 0]], n, 0.6);
  }
}

function circle(r, segments, from = 0, to = 2 * Math.PI, centre = [0, 0]) {
  const out = [];
  for (let i = 0; i <= segments; i++) {
    const a = from + ((to - from) * i) / segments;
    out.push([centre[0] + r * Math.cos(a), centre[1] + r * Math.sin(a)]);
  }
  return out;
}

function buildMesh(spec, planar, count) {
  const m = new MeshBuilder();
  const fine = count <= FINE_SPHERES;
  switch (spec.shape) {
    case "sphere":
      // A unit square: balls and discs are drawn by their own programs (BALL_VS, DISC_VS).
      m.polygon([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], [0, 0, 1]);
      break;
    case "box": {
      const [x, y, z] = spec.half_extents;
      if (planar) {
        flat(m, [[-x, -y], [x, -y], [x, y], [-x, y]], 0);
        break;
      }
      const c = (sx, sy, sz) => [sx * x, sy * y, sz * z];
      m.polygon([c(1, -1, -1), c(1, 1, -1), c(1, 1, 1), c(1, -1, 1)]);
      m.polygon([c(-1, -1, -1), c(-1, -1, 1), c(-1, 1, 1), c(-1, 1, -1)]);
      m.polygon([c(-1, 1, -1), c(-1, 1, 1), c(1, 1, 1), c(1, 1, -1)]);
      m.polygon([c(-1, -1, -1), c(1, -1, -1), c(1, -1, 1), c(-1, -1, 1)]);
      m.polygon([c(-1, -1, 1), c(1, -1, 1), c(1, 1, 1), c(-1, 1, 1)]);
      m.polygon([c(-1, -1, -1), c(-1, 1, -1), c(1, 1, -1), c(1, -1, -1)]);
      break;
    }
    case "capsule": {
      const { radius: r, half_height: h } = spec;
      if (planar) {
        const top = circle(r, 16, 0, Math.PI, [0, h]);
        const bottom = circle(r, 16, Math.PI, 2 * Math.PI, [0, -h]);
        flat(m, top.concat(bottom), 0);
        break;
      }
      ball(m, r, [0, h, 0], (t) => t[0][1] + t[1][1] + t[2][1] >= 0, fine);
      ball(m, r, [0, -h, 0], (t) => t[0][1] + t[1][1] + t[2][1] < 0, fine);
      const k = 32;
      for (let i = 0; i < k; i++) {
        const a0 = (2 * Math.PI * i) / k, a1 = (2 * Math.PI * (i + 1)) / k;
        const n0 = [Math.cos(a0), 0, -Math.sin(a0)], n1 = [Math.cos(a1), 0, -Math.sin(a1)];
        const p = (n, y) => [r * n[0], y, r * n[2]];
        m.smooth(p(n0, -h), p(n1, -h), p(n1, h), n0, n1, n1);
        m.smooth(p(n0, -h), p(n1, h), p(n0, h), n0, n1, n0);
      }
      break;
    }
    case "convex": {
      const v = spec.vertices;
      if (planar) {
        flat(m, v, 0);
        break;
      }
      for (const f of spec.faces) m.polygon(f.map((i) => v[i]));
      break;
    }
    case "segment": {
      const [a, b] = spec.vertices;
      const r = Math.max(spec.radius, 0);
      const d = normalize([b[0] - a[0], b[1] - a[1], 0]);
      const angle = Math.atan2(d[1], d[0]);
      if (r > 0) {
        const outline = circle(r, 12, angle - Math.PI / 2, angle + Math.PI / 2, b)
          .concat(circle(r, 12, angle + Math.PI / 2, angle + 1.5 * Math.PI, a));
        flat(m, outline, 0);
      }
      break;
    }
    case "fill":
      m.polygon(spec.points);
      break;
    default:
      break;
  }
  return m;
}

// ---- The renderer. ----

function compile(gl, vs, fs) {
  const prog = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    gl.attachShader(prog, s);
  }
  gl.linkProgram(prog);
  if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(prog));
  return prog;
}

// Whether WebGL runs on the CPU (no GPU: SwiftShader, llvmpipe): multisampling there costs
// more than half the frame rate, so edges go unsmoothed.
let software = null;
function softwareGL() {
  if (software === null) {
    const gl = document.createElement("canvas").getContext("webgl2");
    const info = gl && gl.getExtension("WEBGL_debug_renderer_info");
    const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : "";
    software = /swiftshader|llvmpipe|softpipe|software/i.test(name);
    const lose = gl && gl.getExtension("WEBGL_lose_context");
    if (lose) lose.loseContext();
  }
  return software;
}

// The colour of the links: springs orange, joints blue-grey; contacts red.
const LINK_COLORS = { spring: [0.95, 0.55, 0.1], joint: [0.3, 0.4, 0.55] };
const CONTACT_COLOR = [0.9, 0.1, 0.1];

class Renderer {
  constructor(canvas, scene) {
    const gl = canvas.getContext("webgl2", { antialias: !softwareGL(), preserveDrawingBuffer: false });
    if (!gl) throw new Error("this browser has no WebGL2");
    this.gl = gl;
    // Whether the drawing buffer is multisampled (see COVERAGE).
    this.smooth = !!gl.getContextAttributes().antialias;
    this.canvas = canvas;
    this.mesh = compile(gl, MESH_VS, MESH_FS);
    this.ball = compile(gl, BALL_VS, BALL_FS);
    this.disc = compile(gl, DISC_VS, DISC_FS);
    this.line = compile(gl, LINE_VS, LINE_FS);
    this.lineBuffer = gl.createBuffer();
    this.setScene(scene);
  }

  setScene(scene) {
    const gl = this.gl;
    for (const g of this.groups || []) {
      gl.deleteVertexArray(g.vao);
      gl.deleteBuffer(g.vertices);
      gl.deleteBuffer(g.elements);
      gl.deleteTexture(g.bodies);
    }
    this.scene = scene;
    this.planar = !!scene.planar;
    // The bodies drawn with one mesh are drawn together (a draw per CHUNK of them).
    const byMesh = new Map();
    scene.bodies.forEach((b, i) => {
      if (!(b.mesh in scene.meshes)) return;
      if (!byMesh.has(b.mesh)) byMesh.set(b.mesh, []);
      byMesh.get(b.mesh).push(i);
    });
    this.groups = [];
    for (const [key, members] of byMesh) {
      const spec = scene.meshes[key];
      const m = buildMesh(spec, this.planar, scene.bodies.length);
      if (m.pos.length === 0) continue;
      // Balls and discs are drawn by their own programs, from a square.
      const radius = spec.shape === "sphere" ? spec.radius : null;
      const program = radius === null ? this.mesh : this.planar ? this.disc : this.ball;
      const vao = gl.createVertexArray();
      gl.bindVertexArray(vao);
      const copies = Math.min(members.length, CHUNK);
      const count = m.pos.length / 3;
      // One copy of the mesh, then as many as a chunk holds, each with its number.
      const one = new Float32Array(count * 8);
      for (let i = 0; i < count; i++) {
        one.set(m.pos.slice(3 * i, 3 * i + 3), 8 * i);
        one.set(m.normal.slice(3 * i, 3 * i + 3), 8 * i + 3);
        one[8 * i + 6] = m.shade[i];
      }
      const data = new Float32Array(copies * count * 8);
      for (let c = 0; c < copies; c++) {
        data.set(one, c * count * 8);
        for (let i = 0; i < count; i++) data[(c * count + i) * 8 + 7] = c;
      }
      const vertices = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, vertices);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      const indices = new Uint32Array(copies * m.indices.length);
      for (let c = 0; c < copies; c++) {
        for (let i = 0; i < m.indices.length; i++) indices[c * m.indices.length + i] = c * count + m.indices[i];
      }
      const elements = gl.createBuffer();
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, elements);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices, gl.STATIC_DRAW);
      const attr = (name, size, offset) => {
        const loc = gl.getAttribLocation(program, name);
        if (loc < 0) return;
        gl.enableVertexAttribArray(loc);
        gl.vertexAttribPointer(loc, size, gl.FLOAT, false, 32, offset);
      };
      attr("a_pos", 3, 0);
      attr("a_normal", 3, 12);
      attr("a_shade", 1, 24);
      attr("a_copy", 1, 28);
      // Three texels a body: see MESH_VS.
      const rows = Math.ceil(members.length / BODIES_PER_ROW);
      const bodies = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, bodies);
      gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, 3 * BODIES_PER_ROW, rows);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      gl.bindVertexArray(null);
      this.groups.push({
        vao, vertices, elements, bodies, members, rows, program, radius,
        count: m.indices.length,
        data: new Float32Array(rows * BODIES_PER_ROW * 12),
        // In 2D everything lies in one plane: bodies are drawn over segments, segments over
        // the ground.
        lift: this.planar ? { fill: 0, segment: 5e-5 }[scene.meshes[key].shape] ?? 1e-4 : 0,
        fill: scene.meshes[key].shape === "fill",
      });
    }
  }

  // Where world point p lands in the canvas, in CSS pixels from its top left.
  project(p) {
    const m = this.viewproj;
    const x = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
    const y = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
    const w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
    const rect = this.canvas.getBoundingClientRect();
    return [((x / w + 1) / 2) * rect.width, ((1 - y / w) / 2) * rect.height];
  }

  draw(poses, camera, options) {
    const gl = this.gl;
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    gl.viewport(0, 0, width, height);
    gl.clearColor(0.96, 0.97, 0.98, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    this.viewproj = camera.matrix(width / height);
    const lines = [];
    this.grid(lines, camera);
    this.drawLines(lines);
    // Bodies.
    for (const program of [this.mesh, this.ball, this.disc]) {
      gl.useProgram(program);
      const set = (name) => gl.getUniformLocation(program, name);
      gl.uniformMatrix4fv(set("u_viewproj"), false, this.viewproj);
      gl.uniform1i(set("u_bodies"), 0);
      if (program === this.mesh) gl.uniform1f(set("u_flat"), this.planar ? 1 : 0);
      if (program !== this.disc) gl.uniform3fv(set("u_light"), LIGHT);
      if (program === this.ball && camera.eye) gl.uniform3fv(set("u_eye"), camera.eye);
    }
    gl.activeTexture(gl.TEXTURE0);
    const bodies = this.scene.bodies;
    for (const g of this.groups) {
      // Each frame, for every body: plain copies, no arrays made.
      const data = g.data;
      for (let k = 0; k < g.members.length; k++) {
        const bi = g.members[k], o = 7 * bi, d = 12 * k, c = bodies[bi].color;
        for (let j = 0; j < 3; j++) data[d + j] = poses[o + j];
        for (let j = 0; j < 4; j++) data[d + 4 + j] = poses[o + 3 + j];
        for (let j = 0; j < 3; j++) data[d + 8 + j] = c[j];
      }
      gl.useProgram(g.program);
      // Balls and discs: their outlines' coverage as alpha (see COVERAGE), which is not
      // written, so the canvas stays opaque.
      const cast = g.radius !== null;
      if (cast && this.smooth) gl.enable(gl.SAMPLE_ALPHA_TO_COVERAGE);
      else gl.disable(gl.SAMPLE_ALPHA_TO_COVERAGE);
      gl.colorMask(true, true, true, !cast);
      if (cast) {
        gl.uniform1f(gl.getUniformLocation(g.program, "u_smooth"), this.smooth ? 1 : 0);
        gl.uniform1f(gl.getUniformLocation(g.program, "u_radius"), g.radius);
      }
      if (g.program !== this.ball) gl.uniform1f(gl.getUniformLocation(g.program, "u_lift"), g.lift);
      gl.bindTexture(gl.TEXTURE_2D, g.bodies);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 3 * BODIES_PER_ROW, g.rows, gl.RGBA, gl.FLOAT, g.data);
      // Planes lie under the grid drawn on them.
      if (g.fill) {
        gl.enable(gl.POLYGON_OFFSET_FILL);
        gl.polygonOffset(1, 4);
      } else {
        gl.disable(gl.POLYGON_OFFSET_FILL);
      }
      gl.bindVertexArray(g.vao);
      const first = gl.getUniformLocation(g.program, "u_first");
      for (let k = 0; k < g.members.length; k += CHUNK) {
        gl.uniform1i(first, k);
        gl.drawElements(gl.TRIANGLES, g.count * Math.min(CHUNK, g.members.length - k), gl.UNSIGNED_INT, 0);
      }
    }
    gl.bindVertexArray(null);
    gl.disable(gl.POLYGON_OFFSET_FILL);
    gl.disable(gl.SAMPLE_ALPHA_TO_COVERAGE);
    gl.colorMask(true, true, true, true);
    // What is drawn over the bodies: in 2D everything lies in one plane, so links, segments
    // and contact marks go on top; in 3D links and segments are hidden by what is in front of
    // them, and contact marks (on the surfaces, half inside the bodies) are always seen.
    const over = [];
    this.links(over, poses, options);
    this.segments(over, poses);
    if (this.planar) gl.disable(gl.DEPTH_TEST);
    this.drawLines(over);
    if (options.contacts && options.contactPoints) {
      const marks = [];
      this.contacts(marks, options.contactPoints, camera);
      gl.disable(gl.DEPTH_TEST);
      this.drawLines(marks);
    }
    gl.enable(gl.DEPTH_TEST);
  }

  // Lines as (x, y, z, r, g, b) pairs.
  drawLines(lines) {
    if (lines.length === 0) return;
    const gl = this.gl;
    gl.useProgram(this.line);
    gl.uniformMatrix4fv(gl.getUniformLocation(this.line, "u_viewproj"), false, this.viewproj);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.lineBuffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(lines), gl.STREAM_DRAW);
    for (const [name, offset] of [["a_pos", 0], ["a_color", 12]]) {
      const loc = gl.getAttribLocation(this.line, name);
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, 3, gl.FLOAT, false, 24, offset);
    }
    gl.drawArrays(gl.LINES, 0, lines.length / 6);
    for (const name of ["a_pos", "a_color"]) gl.disableVertexAttribArray(gl.getAttribLocation(this.line, name));
  }

  // A grid of metres (of tenths when zoomed in, ...), every tenth line darker, in the x-y
  // plane (2D) or on the floor (3D).
  grid(lines, camera) {
    const span = camera.span();
    const step = Math.pow(10, Math.floor(Math.log10(Math.max(span, 1e-6) / 2)));
    const c = camera.target;
    const count = Math.ceil(span / step);
    const light = [0.86, 0.88, 0.91];
    const strong = [0.7, 0.73, 0.78];
    const [u, v] = this.planar ? [0, 1] : [0, 2];
    const level = this.planar ? -0.5 : this.scene.floor;
    const point = (a, b) => (this.planar ? [a, b, level] : [a, level, b]);
    for (const [axis, other] of [[u, v], [v, u]]) {
      const first = Math.round(c[axis] / step) - count;
      for (let k = first; k <= first + 2 * count; k++) {
        const col = k % 10 === 0 ? strong : light;
        const a = k * step;
        const from = c[other] - count * step, to = c[other] + count * step;
        const p = axis === u ? [point(a, from), point(a, to)] : [point(from, a), point(to, a)];
        lines.push(...p[0], ...col, ...p[1], ...col);
      }
    }
  }

  segments(lines, poses) {
    const color = [0.35, 0.37, 0.4];
    this.scene.bodies.forEach((b, i) => {
      const spec = this.scene.meshes[b.mesh];
      if (!spec || spec.shape !== "segment" || spec.radius > 0) return;
      const q = poses.subarray(7 * i + 3, 7 * i + 7), x = poses.subarray(7 * i, 7 * i + 3);
      const [a, c] = spec.vertices.map((v) => {
        const w = rotate(q, [v[0], v[1], 0]);
        return [w[0] + x[0], w[1] + x[1], w[2] + x[2]];
      });
      lines.push(...a, ...color, ...c, ...color);
    });
  }

  links(lines, poses, options) {
    for (const l of this.scene.links || []) {
      if (l.kind === "spring" ? !options.springs : !options.joints) continue;
      const end = (body, anchor) => {
        if (body < 0) return anchor;
        const q = poses.subarray(7 * body + 3, 7 * body + 7), x = poses.subarray(7 * body, 7 * body + 3);
        const w = rotate(q, anchor);
        return [w[0] + x[0], w[1] + x[1], w[2] + x[2]];
      };
      const color = LINK_COLORS[l.kind === "spring" ? "spring" : "joint"];
      lines.push(...end(l.a, l.anchor_a), ...color, ...end(l.b, l.anchor_b), ...color);
    }
  }

  contacts(lines, points, camera) {
    const s = 0.012 * camera.span();
    for (let i = 0; i + 2 < points.length; i += 3) {
      const [x, y, z] = [points[i], points[i + 1], points[i + 2]];
      lines.push(x - s, y, z, ...CONTACT_COLOR, x + s, y, z, ...CONTACT_COLOR);
      lines.push(x, y - s, z, ...CONTACT_COLOR, x, y + s, z, ...CONTACT_COLOR);
      if (!this.planar) lines.push(x, y, z - s, ...CONTACT_COLOR, x, y, z + s, ...CONTACT_COLOR);
    }
  }
}

// ---- The camera: orbit, pan and zoom (3D, perspective); pan and zoom (2D, orthographic). ----

class Camera {
  constructor(limits, planar) {
    this.planar = planar;
    this.fit(limits);
  }

  fit(limits) {
    const [lo, hi] = limits;
    this.target = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
    const size = [0, 1, 2].map((k) => hi[k] - lo[k]);
    this.size = size;
    if (this.planar) {
      this.half = [Math.max(size[0] / 2, 1e-3), Math.max(size[1] / 2, 1e-3)];
    } else {
      this.yaw = 0.6;
      this.pitch = 0.35;
      this.distance = Math.max(Math.hypot(...size) / 2, 1e-3) / Math.sin(Math.PI / 8) * 1.05;
    }
  }

  // The view's width in world units around the target (for the grid and marks).
  span() {
    return this.planar ? 2 * Math.max(this.half[0], this.half[1]) : this.distance;
  }

  matrix(aspect) {
    if (this.planar) {
      // The limits fit inside the view; the other direction grows with the aspect.
      let [hx, hy] = this.half;
      if (hx / hy < aspect) hx = hy * aspect;
      else hy = hx / aspect;
      this.shown = [hx, hy];
      const c = this.target;
      return orthographic(c[0] - hx, c[0] + hx, c[1] - hy, c[1] + hy, -10, 10);
    }
    const c = this.target;
    const eye = [
      c[0] + this.distance * Math.cos(this.pitch) * Math.sin(this.yaw),
      c[1] + this.distance * Math.sin(this.pitch),
      c[2] + this.distance * Math.cos(this.pitch) * Math.cos(this.yaw),
    ];
    this.eye = eye;
    const near = this.distance / 1000;
    return multiply(perspective(Math.PI / 4, aspect, near, this.distance * 100), lookAt(eye, c, [0, 1, 0]));
  }

  orbit(dx, dy) {
    this.yaw -= dx * 0.008;
    this.pitch = Math.min(1.55, Math.max(-1.55, this.pitch + dy * 0.008));
  }

  pan(dx, dy, height) {
    if (this.planar) {
      const k = (2 * this.shown[1]) / height;
      this.target[0] -= dx * k;
      this.target[1] += dy * k;
      return;
    }
    const k = (2 * this.distance * Math.tan(Math.PI / 8)) / height;
    const right = [Math.cos(this.yaw), 0, -Math.sin(this.yaw)];
    const up = [-Math.sin(this.pitch) * Math.sin(this.yaw), Math.cos(this.pitch), -Math.sin(this.pitch) * Math.cos(this.yaw)];
    for (let i = 0; i < 3; i++) this.target[i] += (-dx * right[i] + dy * up[i]) * k;
  }

  zoom(factor) {
    if (this.planar) this.half = this.half.map((h) => h * factor);
    else this.distance *= factor;
  }
}

function controls(canvas, camera, redraw, refit) {
  let last = null;
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => {
    last = [e.clientX, e.clientY, e.button === 2 || e.shiftKey || camera.planar];
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!last) return;
    const [dx, dy] = [e.clientX - last[0], e.clientY - last[1]];
    if (last[2]) camera.pan(dx, dy, canvas.clientHeight);
    else camera.orbit(dx, dy);
    last = [e.clientX, e.clientY, last[2]];
    redraw();
  });
  canvas.addEventListener("pointerup", () => { last = null; });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    camera.zoom(Math.exp(e.deltaY * 0.001));
    redraw();
  }, { passive: false });
  canvas.addEventListener("dblclick", () => { refit(); redraw(); });
}

// ---- Data from the model: bytes as typed arrays. ----

function floats(value, Type = Float32Array) {
  if (!value) return new Type(0);
  let bytes;
  if (value instanceof DataView) bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  else if (value instanceof ArrayBuffer) bytes = new Uint8Array(value);
  else if (ArrayBuffer.isView(value)) bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  else if (typeof value === "string") bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  else return new Type(0);
  const n = Math.floor(bytes.byteLength / Type.BYTES_PER_ELEMENT);
  if (bytes.byteOffset % Type.BYTES_PER_ELEMENT === 0) return new Type(bytes.buffer, bytes.byteOffset, n);
  return new Type(bytes.slice(0, n * Type.BYTES_PER_ELEMENT).buffer);
}

// The pose of every body at time t: between the two samples around it, positions linear and
// orientations normalised linear (nlerp), so playback is smooth at any speed.
// The first sample at or after time t (times.length when there is none), by bisection: it
// runs every frame.
function sampleFrom(times, t) {
  let lo = 0, hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function poseAt(frames, times, n, t, out) {
  const T = times.length;
  const hi = sampleFrom(times, t);
  if (hi === 0 || T === 1) return out.set(frames.subarray(0, 7 * n)), out;
  if (hi >= T) return out.set(frames.subarray(7 * n * (T - 1), 7 * n * T)), out;
  const lo = hi - 1;
  const s = (t - times[lo]) / (times[hi] - times[lo]);
  const a = 7 * n * lo, b = 7 * n * hi;
  for (let i = 0; i < n; i++) {
    const o = 7 * i;
    for (let k = 0; k < 3; k++) out[o + k] = frames[a + o + k] * (1 - s) + frames[b + o + k] * s;
    let dot = 0;
    for (let k = 3; k < 7; k++) dot += frames[a + o + k] * frames[b + o + k];
    const sign = dot < 0 ? -1 : 1;
    let len = 0;
    for (let k = 3; k < 7; k++) {
      out[o + k] = frames[a + o + k] * (1 - s) + sign * frames[b + o + k] * s;
      len += out[o + k] * out[o + k];
    }
    len = Math.sqrt(len) || 1;
    for (let k = 3; k < 7; k++) out[o + k] /= len;
  }
  return out;
}

function element(tag, style, parent, text) {
  const e = document.createElement(tag);
  if (style) e.style.cssText = style;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function checkbox(parent, label, value, changed) {
  const l = element("label", "margin-left:10px;white-space:nowrap", parent);
  const box = element("input", "vertical-align:middle", l);
  box.type = "checkbox";
  box.checked = value;
  element("span", "", l, " " + label);
  box.addEventListener("change", () => changed(box.checked));
  return box;
}

// Mounts a view in `el`: `model` has get(name), on("change:name", f) and optionally
// set/save_changes (anywidget's model, or a fixed one for a standalone file).
function mount(model, el) {
  const height = model.get("height") || 420;
  const root = element("div", "font:13px sans-serif;color:#333;max-width:100%", el);
  const box = element("div", `position:relative;width:100%;height:${height}px`, root);
  const canvas = element("canvas", "width:100%;height:100%;display:block;touch-action:none;border:1px solid #ccd", box);
  const hud = element("div", "position:absolute;left:8px;top:6px;pointer-events:none;font:12px monospace;color:#445", box);
  let scene = model.get("scene");
  const renderer = new Renderer(canvas, scene);
  const camera = new Camera(scene.limits, !!scene.planar);
  const options = {
    springs: model.get("show_springs") !== false,
    joints: model.get("show_joints") !== false,
    contacts: !!model.get("show_contacts"),
    contactPoints: null,
  };
  const recording = model.get("mode") === "recording";
  let poses = floats(model.get("poses"));
  let frames = null, times = null, n = scene.bodies.length;
  let t = 0, playing = false, speed = 1, lastTick = null;
  let drawn = 0;
  const state = { frames: 0, drawn: 0 };

  const draw = () => {
    renderer.draw(poses, camera, options);
    drawn++;
    state.drawn = drawn;
    const time = recording ? t : model.get("time");
    hud.textContent = `t = ${(time || 0).toFixed(3)} s   ${n} bodies`;
  };
  let pending = false;
  const redraw = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; draw(); });
  };
  controls(canvas, camera, redraw, () => camera.fit(scene.limits));

  const bar = element("div", "display:flex;align-items:center;gap:6px;margin-top:4px;flex-wrap:wrap", root);
  let slider = null, play = null, label = null;
  if (recording) {
    frames = floats(model.get("frames"));
    times = floats(model.get("times"), Float64Array);
    // Contact points, when recorded: each sample's (no blending between samples).
    const points = floats(model.get("contact_points"));
    const counts = floats(model.get("contact_counts"), Uint32Array);
    const first = new Uint32Array(counts.length + 1);
    counts.forEach((c, i) => { first[i + 1] = first[i] + c; });
    state.hasContacts = counts.length > 0;
    const contactsAt = (time) => {
      // The last sample at or before `time`.
      const next = sampleFrom(times, time);
      const i = next < times.length && times[next] === time ? next : Math.max(next - 1, 0);
      return points.subarray(3 * first[i], 3 * first[i + 1]);
    };
    n = scene.bodies.length;
    poses = new Float32Array(7 * n);
    play = element("button", "min-width:64px", bar, "play");
    slider = element("input", "flex:1;min-width:160px", bar);
    slider.type = "range";
    slider.min = 0;
    slider.max = 1000;
    slider.value = 0;
    label = element("span", "font:12px monospace;min-width:90px", bar);
    const speeds = element("select", "", bar);
    for (const s of [0.1, 0.25, 0.5, 1, 2, 4]) {
      const o = element("option", "", speeds, `${s}x`);
      o.value = s;
      if (s === 1) o.selected = true;
    }
    speeds.addEventListener("change", () => { speed = Number(speeds.value); });
    const t0 = times.length ? times[0] : 0, t1 = times.length ? times[times.length - 1] : 0;
    t = t0;
    const seek = (time) => {
      t = Math.min(Math.max(time, t0), t1);
      slider.value = t1 > t0 ? Math.round((1000 * (t - t0)) / (t1 - t0)) : 0;
      label.textContent = `${t.toFixed(3)} / ${t1.toFixed(2)} s`;
      poseAt(frames, times, n, t, poses);
      if (state.hasContacts) options.contactPoints = contactsAt(t);
      state.time = t;
      draw();
    };
    slider.addEventListener("input", () => { playing = false; play.textContent = "play"; seek(t0 + ((t1 - t0) * slider.value) / 1000); });
    const tick = (now) => {
      if (!playing) return;
      if (lastTick !== null) seek(t + ((now - lastTick) / 1000) * speed);
      lastTick = now;
      state.frames++;
      if (t >= t1) { playing = false; play.textContent = "play"; return; }
      requestAnimationFrame(tick);
    };
    play.addEventListener("click", () => {
      playing = !playing;
      play.textContent = playing ? "pause" : "play";
      if (playing) {
        if (t >= t1) t = t0;
        lastTick = null;
        requestAnimationFrame(tick);
      }
    });
    state.seek = seek;
    state.play = () => { if (!playing) play.click(); };
    seek(t0);
  }
  const toggles = [];
  if ((scene.links || []).some((l) => l.kind === "spring")) toggles.push(["springs", "springs"]);
  if ((scene.links || []).some((l) => l.kind !== "spring")) toggles.push(["joints", "joints"]);
  if (!recording || state.hasContacts) toggles.push(["contacts", "contacts"]);
  for (const [key, text] of toggles) {
    checkbox(bar, text, options[key], (v) => {
      options[key] = v;
      if (model.set) {
        model.set(`show_${key}`, v);
        model.save_changes();
      }
      redraw();
    });
  }

  const onScene = () => {
    scene = model.get("scene");
    renderer.setScene(scene);
    n = scene.bodies.length;
    redraw();
  };
  const onPoses = () => {
    poses = floats(model.get("poses"));
    options.contactPoints = floats(model.get("contacts"));
    state.frames++;
    redraw();
  };
  if (!recording) {
    options.contactPoints = floats(model.get("contacts"));
    model.on("change:scene", onScene);
    model.on("change:poses", onPoses);
    model.on("change:show_contacts", () => { options.contacts = !!model.get("show_contacts"); redraw(); });
  }
  new ResizeObserver(redraw).observe(canvas);
  draw();
  // For tests and the curious: where a world point is drawn, and how many frames came.
  state.project = (p) => renderer.project(p);
  state.camera = camera;
  state.model = model;
  state.draw = draw;
  el.rigidlab = state;
  return () => {
    model.off && model.off("change:scene", onScene);
    model.off && model.off("change:poses", onPoses);
  };
}

// anywidget's entry point.
export function render({ model, el }) {
  return mount(model, el);
}

// A standalone page: the same view from fixed data (base64 strings for the arrays).
export function standalone(el, data) {
  const model = { get: (k) => data[k], on: () => {} };
  return mount(model, el);
}

export default { render };
