var utg = 
{
 "nodes": [
  {
   "id": "s_main",
   "state_str": "s_main",
   "package": "com.example.app",
   "activity": ".Main"
  }
 ],
 "edges": [],
 "app_package": "com.example.app"
}