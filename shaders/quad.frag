#version 330 core
// Texture times a tint: images (white tint), text (white glyphs, coloured by
// the tint) and solid rectangles (a 1x1 white texture).
uniform sampler2D u_tex;
uniform vec4 u_tint;
in vec2 v_uv;
out vec4 frag;

void main()
{
    frag = texture(u_tex, v_uv) * u_tint;
}
