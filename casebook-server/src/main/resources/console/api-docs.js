// The interactive page for /api/openapi.json (Swagger UI, packaged as a webjar).
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  docExpansion: 'list',
  tryItOutEnabled: false,
});
