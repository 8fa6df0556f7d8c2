#version 330 core
// A float result (one channel, a texture filled on the GPU from the engine's
// buffer) shown as grey through the display mode, as img_display_byte does
// on the CPU: 0 clamp, 1 absolute value, 2 signed (zero is mid grey).
uniform sampler2D u_tex;
uniform int u_display;
in vec2 v_uv;
in vec4 v_color;
out vec4 frag;

void main()
{
    float v = texture(u_tex, v_uv).r;
    float g = u_display == 1 ? abs(v) : (u_display == 2 ? 127.5 + 0.5 * v : v);
    if (isnan(v))
        g = 0.0;
    frag = vec4(vec3(clamp(g, 0.0, 255.0) / 255.0), 1.0) * v_color;
}
