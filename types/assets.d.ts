declare module "*.sql" {
  const sql: string;
  export default sql;
}
declare module "*.txt" {
  const text: string;
  export default text;
}
declare module "*.css";
declare module "*.woff2" {
  const url: string;
  export default url;
}
