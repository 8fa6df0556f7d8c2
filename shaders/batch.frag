#version 330 core
// Texture times the vertex colour: images (white), text (white glyphs with
// alpha, coloured by the vertex) and solid shapes (a 1x1 white texture).
uniform sampler2D u_tex;
in vec2 v_uv;
in vec4 v_color;
out vec4 frag;

void main()
{
    frag = texture(u_tex, v_uv) * v_color;
}
