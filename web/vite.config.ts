import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Root is web/ (`vite build web`); the shared domain/ folder sits one level up, so the dev server may read it.
export default defineConfig({
  plugins: [react()],
  server: { port: 5173, fs: { allow: ['..'] } },
  preview: { port: 5173 },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 900 },
});
