export type Role = "owner" | "staff" | "viewer";
export const CAN_WRITE: Role[] = ["owner", "staff"];
