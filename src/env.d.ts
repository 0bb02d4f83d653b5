/// <reference types="astro/client" />
/// <reference types="@webgpu/types" />
