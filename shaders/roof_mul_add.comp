#version 430
// roof_mul_add.comp - the gl engine's compute roof (src/compute/gl_roofs.c):
// the convolution's arithmetic alone, a multiply then an add (x = x * a + b),
// in eight independent chains of vec4 an invocation, u_steps steps each,
// enough invocations to fill the device. `precise` keeps the compiler from
// fusing the two into one multiply-add, as the conv shaders do (conv3x3.glsl).
// Each invocation writes its chains' sum, so that none is left out.

layout(local_size_x = 256) in;

layout(std430, binding = 0) writeonly buffer roof_sink { float sink[]; };

uniform int u_steps;
uniform float u_a;
uniform float u_b;

void main()
{
    uint id = gl_GlobalInvocationID.x;
    vec4 seed = vec4(1.0, 1.001, 1.002, 1.003) + vec4(float(id & 255u) * 1e-6);
    precise vec4 x0 = seed, x1 = seed + 0.01, x2 = seed + 0.02, x3 = seed + 0.03;
    precise vec4 x4 = seed + 0.04, x5 = seed + 0.05, x6 = seed + 0.06, x7 = seed + 0.07;
    for (int i = 0; i < u_steps; ++i) {
        x0 = x0 * u_a + u_b;
        x1 = x1 * u_a + u_b;
        x2 = x2 * u_a + u_b;
        x3 = x3 * u_a + u_b;
        x4 = x4 * u_a + u_b;
        x5 = x5 * u_a + u_b;
        x6 = x6 * u_a + u_b;
        x7 = x7 * u_a + u_b;
    }
    vec4 s = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
    sink[id] = s.x + s.y + s.z + s.w;
}
