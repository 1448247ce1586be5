// Rows of the new ecosystems (1000+).
export default [];
