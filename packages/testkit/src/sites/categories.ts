export interface Category {
  slug: string;
  name: string;
  /** An intent a smart-crawl test can state; the category's products are its relevant subset. */
  intent: string;
  keywords: readonly string[];
  nouns: readonly string[];
  adjectives: readonly string[];
}

const c = (slug: string, name: string, intent: string, keywords: string, nouns: string, adjectives: string): Category => ({
  slug, name, intent, keywords: keywords.split(' '), nouns: nouns.split(','), adjectives: adjectives.split(','),
});

/** Many categories on purpose: a breadth-first crawler spends its budget on hubs that do not match the intent. */
export const CATEGORIES: readonly Category[] = [
  c('headphones', 'Noise Cancelling Headphones', 'noise cancelling wireless headphones', 'headphones wireless noise cancelling anc bluetooth over-ear battery', 'Headphones,Over-Ear Headphones,Headset', 'Wireless Noise Cancelling,Noise Cancelling,ANC Wireless'),
  c('speakers', 'Speakers', 'portable bluetooth speaker', 'speaker bluetooth portable waterproof bass stereo', 'Speaker,Soundbar,Party Speaker', 'Portable,Bluetooth,Waterproof'),
  c('laptops', 'Laptops', 'lightweight laptop for travel', 'laptop processor ram ssd display battery keyboard notebook', 'Laptop,Notebook,Ultrabook', 'Slim,Gaming,Business'),
  c('monitors', 'Monitors', 'curved gaming monitor', 'monitor display resolution refresh panel hdmi curved', 'Monitor,Display,Screen', 'Curved,Ultrawide,4K'),
  c('cameras', 'Cameras', 'mirrorless camera for photography', 'camera lens sensor megapixel zoom shutter photography', 'Camera,Camcorder,Action Cam', 'Mirrorless,Compact,Full-Frame'),
  c('phones', 'Phones', 'unlocked smartphone', 'phone smartphone unlocked dual sim storage', 'Smartphone,Phone,Flip Phone', 'Unlocked,Dual-SIM,Rugged'),
  c('watches', 'Watches', 'smartwatch with heart rate', 'watch smartwatch heart rate strap fitness tracker', 'Smartwatch,Watch,Fitness Tracker', 'Smart,Classic,Sport'),
  c('kitchen', 'Kitchen', 'electric kettle', 'kitchen cooking blender kettle stainless recipe', 'Blender,Kettle,Toaster', 'Stainless,Electric,Ceramic'),
  c('coffee', 'Coffee', 'espresso machine', 'coffee espresso grinder beans brew milk', 'Espresso Machine,Coffee Grinder,Milk Frother', 'Manual,Automatic,Barista'),
  c('garden', 'Garden', 'garden hose', 'garden plants soil watering hose outdoor lawn', 'Hose,Planter,Pruner', 'Expandable,Raised,Heavy-Duty'),
  c('tools', 'Tools', 'cordless drill', 'tools drill cordless screwdriver torque workshop', 'Drill,Impact Driver,Tool Kit', 'Cordless,Brushless,Compact'),
  c('books', 'Books', 'illustrated cookbook', 'book novel author chapters paperback story edition', 'Novel,Cookbook,Atlas', 'Illustrated,Paperback,Hardcover'),
  c('toys', 'Toys', 'educational building toy', 'toy kids puzzle building blocks game play', 'Puzzle,Building Set,Board Game', 'Wooden,Magnetic,Educational'),
  c('fitness', 'Fitness', 'adjustable dumbbell set', 'fitness workout yoga training weights gym', 'Yoga Mat,Dumbbell Set,Kettlebell', 'Adjustable,Non-Slip,Weighted'),
  c('bikes', 'Bikes', 'electric city bike', 'bike cycling frame gears saddle commute', 'City Bike,Mountain Bike,Bike Helmet', 'Electric,Folding,Lightweight'),
  c('camping', 'Camping', 'waterproof camping tent', 'camping tent sleeping hiking backpack trail', 'Tent,Sleeping Bag,Backpack', 'Ultralight,Insulated,Four-Season'),
  c('furniture', 'Furniture', 'ergonomic office chair', 'furniture chair desk oak ergonomic upholstery', 'Office Chair,Standing Desk,Bookshelf', 'Ergonomic,Oak,Modular'),
  c('lighting', 'Lighting', 'dimmable desk lamp', 'lighting lamp led dimmable bulb warm', 'Desk Lamp,Floor Lamp,LED Strip', 'Dimmable,Smart,Vintage'),
  c('bedding', 'Bedding', 'cotton duvet cover', 'bedding duvet pillow cotton linen sheets', 'Duvet Cover,Pillow,Sheet Set', 'Cotton,Linen,Cooling'),
  c('pets', 'Pets', 'orthopedic dog bed', 'pets dog cat leash bowl treats', 'Dog Bed,Cat Tree,Leash', 'Orthopedic,Chew-Proof,Reflective'),
  c('beauty', 'Beauty', 'hair dryer', 'beauty skincare hair dryer serum fragrance', 'Hair Dryer,Face Serum,Straightener', 'Ionic,Hydrating,Travel'),
  c('office', 'Office Supplies', 'fountain pen', 'office paper pen notebook stapler ink', 'Fountain Pen,Notebook,Stapler', 'Refillable,Dotted,Heavy-Duty'),
  c('music', 'Musical Instruments', 'acoustic guitar', 'music guitar piano strings keyboard amplifier', 'Acoustic Guitar,Digital Piano,Amplifier', 'Acoustic,Digital,Beginner'),
  c('gaming', 'Gaming', 'wireless game controller', 'gaming console controller games joystick', 'Game Controller,Gaming Mouse,Console', 'Wireless,RGB,Pro'),
];
