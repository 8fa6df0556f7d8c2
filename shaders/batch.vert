#version 330 core
// Every 2D thing convis draws is a textured, tinted quad in window pixels
// (origin top-left), batched into one vertex buffer per texture.
layout(location = 0) in vec2 a_pos;    // window pixels
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_color;
uniform vec2 u_viewport;               // window width, height in pixels
out vec2 v_uv;
out vec4 v_color;

void main()
{
    v_uv = a_uv;
    v_color = a_color;
    gl_Position = vec4(a_pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - a_pos.y / u_viewport.y * 2.0, 0.0, 1.0);
}
