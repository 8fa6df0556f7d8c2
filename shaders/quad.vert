#version 330 core
// A rectangle in window pixels (origin top-left), drawn as a 4-vertex strip
// made from gl_VertexID: no vertex buffer needed.
uniform vec4 u_rect;      // x, y, width, height in pixels
uniform vec2 u_viewport;  // window width, height in pixels
out vec2 v_uv;

void main()
{
    vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);
    vec2 px = u_rect.xy + corner * u_rect.zw;
    v_uv = corner;
    gl_Position = vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0);
}
