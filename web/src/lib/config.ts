/** The product API's address (§7: from configuration, default localhost port 3001). */
export const API_URL: string = (import.meta.env.VITE_API_URL as string | undefined) || 'http://localhost:3001';
